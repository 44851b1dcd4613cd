#include "editor_support.hpp"

#include "io/architecture_io.hpp"

#include <QObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace sparsemap::ui {

namespace {

// The loader names a place by its document path ("architecture.levels[2].mesh_x"); the editor names
// it by the level, as architectureProblems does.
std::string componentOf(const Architecture& arch, const std::string& path)
{
    static const QRegularExpression levelPath(R"(^architecture\.levels\[(\d+)\])");
    const QString qpath = QString::fromStdString(path);
    if (const auto match = levelPath.match(qpath); match.hasMatch()) {
        const int i = match.captured(1).toInt();
        if (i >= 0 && i < arch.levelCount())
            return "level " + arch.levels[i].name;
    }
    if (qpath.startsWith("architecture.compute"))
        return "compute";
    return {};
}

} // namespace

std::vector<std::string> savedFileProblems(const Architecture& arch)
{
    try {
        parseArchitectureYaml(architectureToYaml(arch));
        return {};
    } catch (const InputError& e) {
        std::vector<std::string> problems;
        for (const Diagnostic& d : e.diagnostics()) {
            const std::string who = componentOf(arch, d.path);
            problems.push_back(who.empty() ? d.message : who + ": " + d.message);
        }
        return problems;
    } catch (const std::exception& e) { // the emitter: not expected, but never a crash
        return {e.what()};
    }
}

QString newProblem(const Architecture& before, const Architecture& after)
{
    auto problemsOf = [](const Architecture& arch) {
        auto problems = architectureProblems(arch);
        for (auto& problem : savedFileProblems(arch))
            problems.push_back(std::move(problem));
        return problems;
    };
    const auto old = problemsOf(before);
    for (const auto& problem : problemsOf(after)) {
        if (std::find(old.begin(), old.end(), problem) == old.end())
            return QString::fromStdString(problem);
    }
    return {};
}

std::int64_t meshColumns(std::int64_t instances, std::int64_t meshX)
{
    if (meshX > 0)
        return meshX;
    auto x = static_cast<std::int64_t>(std::sqrt(static_cast<double>(std::max<std::int64_t>(instances, 1))));
    while (x > 1 && instances % x != 0)
        --x;
    return std::max<std::int64_t>(x, 1);
}

QString gridText(std::int64_t instances, std::int64_t meshX)
{
    const std::int64_t columns = meshColumns(instances, meshX);
    return QStringLiteral("%1 x %2").arg(columns).arg(instances / columns);
}

std::optional<Grid> parseGrid(const QString& text)
{
    static const QRegularExpression shape(R"(^(\d{1,12})\s*[xX×*]\s*(\d{1,12})$)");
    const auto match = shape.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    const Grid grid{match.captured(1).toLongLong(), match.captured(2).toLongLong()};
    constexpr std::int64_t kLimit = std::int64_t{1} << 40;
    if (grid.columns <= 0 || grid.rows <= 0 || grid.columns > kLimit / grid.rows)
        return std::nullopt;
    return grid;
}

QString gridForms()
{
    return QObject::tr("columns x rows (mesh_x x mesh_y), e.g. `16 x 8`: positive integers");
}

} // namespace sparsemap::ui
