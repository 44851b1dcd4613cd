#include "workload_document.hpp"

#include "common/guarded.hpp"

#include "workload_commands.hpp"
#include "workload_text.hpp"

#include "io/nonzero_pattern_io.hpp"
#include "io/workload_io.hpp"
#include "mapping/tile_shape.hpp"
#include "model/density/density_model_factory.hpp"
#include "workload/workload_factory.hpp"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <exception>
#include <utility>

namespace sparsemap::ui {

namespace {

std::vector<std::int64_t> dimSizes(const Workload& w)
{
    std::vector<std::int64_t> sizes;
    for (const auto& d : w.dims)
        sizes.push_back(d.size);
    return sizes;
}

// The pattern of the tensor's actual data (as read with the workload, DensitySpec::data) checked
// against the tensor's shape, as the density it gives: nnz / elements.
double actualDensity(const Workload& w, int tensor)
{
    return model::actualDataDensity(rankExtents(w, tensor, dimSizes(w)),
                                    w.tensors[tensor].density.actualPattern());
}

// A workload file keeps only the name of an `actual` file; the density it gives is the file's
// nonzero fraction, which the editor shows. A file that cannot be read keeps the value it had (the
// model reports the file when it is used).
void fillActualDensities(Workload& w)
{
    for (int t : w.inputTensors()) {
        DensitySpec& spec = w.tensors[t].density;
        if (spec.model != DensityModelKind::Actual)
            continue;
        try {
            const double d = actualDensity(w, t);
            if (d > 0.0)
                spec.density = d;
        } catch (const std::exception&) {
        }
    }
}

// An `actual` file fixes its tensor's shape: an edit that reshapes such a tensor must still fit it.
QString actualDataProblem(const Workload& before, const Workload& after)
{
    for (int t : after.inputTensors()) {
        const DensitySpec& spec = after.tensors[t].density;
        if (spec.model != DensityModelKind::Actual)
            continue;
        const auto extents = rankExtents(after, t, dimSizes(after));
        const bool sameShape = t < static_cast<int>(before.tensors.size()) &&
                               before.tensors[t].density == spec &&
                               rankExtents(before, t, dimSizes(before)) == extents;
        if (sameShape)
            continue;
        try {
            actualDensity(after, t);
        } catch (const std::exception& e) {
            return QObject::tr("Tensor %1 no longer fits its actual data: %2")
                .arg(QString::fromStdString(after.tensors[t].name), QString::fromUtf8(e.what()));
        }
    }
    return {};
}

// mm1 < mm2 < mm10 < conv1 < ... < others by name: the paper's Table III order first.
bool sampleBefore(const QString& a, const QString& b)
{
    const auto rank = [](const QString& name) -> std::pair<int, int> {
        for (auto [prefix, group] :
             {std::pair{QStringLiteral("mm"), 0}, std::pair{QStringLiteral("conv"), 1}}) {
            bool ok = false;
            const int number = name.startsWith(prefix) ? name.mid(prefix.size()).toInt(&ok) : 0;
            if (ok)
                return {group, number};
        }
        return {2, 0};
    };
    const auto ra = rank(a), rb = rank(b);
    return ra != rb ? ra < rb : a < b;
}

} // namespace

WorkloadDocument::WorkloadDocument(QObject* parent) : QObject(parent)
{
    // "Modified" is exactly "not at the clean index", so undoing back to the save point clears it.
    connect(&m_undoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
    m_workload = defaultWorkload(WorkloadKind::SpMM);
}

QString WorkloadDocument::samplesDirectory()
{
    return QStringLiteral(SPARSEMAP_SAMPLES_DIR "/workloads");
}

QStringList WorkloadDocument::sampleNames()
{
    QStringList names;
    const QFileInfoList files =
        QDir(samplesDirectory()).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name);
    for (const QFileInfo& file : files)
        names << file.completeBaseName();
    std::sort(names.begin(), names.end(), sampleBefore);
    return names;
}

QString WorkloadDocument::samplePath(const QString& name)
{
    return QDir(samplesDirectory()).filePath(name + QStringLiteral(".yaml"));
}

QString WorkloadDocument::loadSample(const QString& name)
{
    const QString path = samplePath(name);
    if (!QFileInfo::exists(path))
        return tr("There is no bundled sample \"%1\"; the samples are: %2.")
            .arg(name, sampleNames().join(QStringLiteral(", ")));
    return guarded([&] {
        Workload w = loadWorkloadFile(path.toStdString());
        fillActualDensities(w);
        replaceAll(std::move(w), {});
    });
}

QString WorkloadDocument::loadFile(const QString& path)
{
    return guarded([&] {
        Workload w = loadWorkloadFile(path.toStdString());
        fillActualDensities(w);
        replaceAll(std::move(w), path);
    });
}

QString WorkloadDocument::loadWorkload(const Workload& workload)
{
    const auto problems = workloadProblems(workload);
    if (!problems.empty())
        return QString::fromStdString("Workload " + workload.name + ": " + problems.front());
    replaceAll(workload, {});
    return {};
}

QString WorkloadDocument::save()
{
    if (m_filePath.isEmpty())
        return tr("No file to save to: choose a file name.");
    return saveAs(m_filePath);
}

QString WorkloadDocument::saveAs(const QString& path)
{
    // A file that would not load back is not written: the user keeps editing and fixes it first.
    const auto problems = workloadProblems(m_workload);
    if (!problems.empty())
        return tr("Cannot save %1: %2.").arg(path, QString::fromStdString(problems.front()));
    const QString error = guarded([&] { saveWorkloadFile(m_workload, path.toStdString()); });
    if (!error.isEmpty())
        return error;
    if (path != m_filePath) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    m_undoStack.setClean();
    return {};
}

Workload WorkloadDocument::defaultWorkload(WorkloadKind kind)
{
    // Small enough to explore in seconds, with sizes that factor well (the paper's toy shapes).
    switch (kind) {
    case WorkloadKind::SpMM:
        return makeSpmm("spmm", 32, 64, 48, uniformDensity(0.5), uniformDensity(0.5));
    case WorkloadKind::BatchedSpMM:
        return makeBatchedSpmm("batched-spmm", 4, 64, 64, 64, uniformDensity(0.5), uniformDensity(0.5));
    case WorkloadKind::SpConv: {
        ConvShape shape;
        shape.c = 16;
        shape.h = shape.w = 16;
        shape.k = 32;
        shape.r = shape.s = 3;
        return makeSpconv("spconv", shape, uniformDensity(0.5), uniformDensity(0.5));
    }
    case WorkloadKind::General: {
        Workload w = makeSpmm("einsum", 32, 64, 48, uniformDensity(0.3), uniformDensity(0.5));
        w.kind = WorkloadKind::General;
        return w;
    }
    }
    return {};
}

void WorkloadDocument::newWorkload(WorkloadKind kind)
{
    replaceAll(defaultWorkload(kind), {});
}

QString WorkloadDocument::edit(Workload after, const QString& text, Check check)
{
    if (check == Check::RefuseNewProblems) {
        if (const QString problem = newWorkloadProblem(m_workload, after); !problem.isEmpty())
            return problem[0].toUpper() + problem.mid(1) + QLatin1Char('.');
    }
    if (const QString problem = actualDataProblem(m_workload, after); !problem.isEmpty())
        return problem;
    if (after != m_workload)
        m_undoStack.push(new EditWorkloadCommand(this, std::move(after), text));
    return {};
}

QString WorkloadDocument::setActualDensity(int tensor, const QString& path)
{
    if (tensor < 0 || tensor >= static_cast<int>(m_workload.tensors.size()) ||
        m_workload.tensors[tensor].isOutput)
        return tr("Actual data can be loaded for an input tensor only.");
    const QString tensorName = QString::fromStdString(m_workload.tensors[tensor].name);
    const QString given = path.trimmed();
    if (given.isEmpty())
        return tr("Tensor %1: give the .mtx or 0/1 mask file to load.").arg(tensorName);
    // Relative paths follow the file format's rule: relative to the workload file's folder.
    const QDir base = m_filePath.isEmpty() ? QDir::current() : QFileInfo(m_filePath).absoluteDir();
    const QString resolved = QDir::cleanPath(base.absoluteFilePath(given));
    Workload after = m_workload;
    DensitySpec spec;
    spec.model = DensityModelKind::Actual;
    spec.resolvedFile = resolved.toStdString();
    // Stored as the file format writes it: relative to the workload file when there is one.
    spec.file = (m_filePath.isEmpty() ? resolved : base.relativeFilePath(resolved)).toStdString();
    loadActualData(spec); // the file is read here, once, and travels with the workload
    after.tensors[tensor].density = spec;
    const QString error = guarded([&] { spec.density = actualDensity(after, tensor); });
    if (!error.isEmpty())
        return tr("Tensor %1: %2").arg(tensorName, error);
    if (!(spec.density > 0.0))
        return tr("Tensor %1: %2 has no nonzeros; a density must be in (0, 1].").arg(tensorName, resolved);
    after.tensors[tensor].density = spec;
    return edit(std::move(after), tr("Load actual data for %1").arg(tensorName));
}

QString WorkloadDocument::convertToGeneral()
{
    if (m_workload.kind == WorkloadKind::General)
        return {};
    Workload after = m_workload;
    after.kind = WorkloadKind::General;
    after.conv.reset();
    return edit(std::move(after), tr("Convert to general"));
}

void WorkloadDocument::applyWorkload(const Workload& workload)
{
    // A change of kind or of the number of dims / tensors changes the tables' rows: reset them.
    const bool shape = workload.kind != m_workload.kind || workload.dims.size() != m_workload.dims.size() ||
                       workload.tensors.size() != m_workload.tensors.size();
    if (shape)
        emit aboutToReset();
    m_workload = workload;
    if (shape)
        emit reset();
    emit changed();
}

void WorkloadDocument::replaceAll(Workload workload, const QString& path)
{
    emit aboutToReset();
    m_workload = std::move(workload);
    emit reset();
    m_undoStack.clear(); // clear() also makes the stack clean
    if (path != m_filePath) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    emit changed();
}

} // namespace sparsemap::ui
