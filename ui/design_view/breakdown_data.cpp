#include "design_view/breakdown_data.hpp"

#include "design_view/design_palette.hpp"

#include <algorithm>

namespace sparsemap::ui::design {

namespace {

bool allZero(const BreakdownSeries& s)
{
    return std::all_of(s.values.begin(), s.values.end(), [](double v) { return v == 0; });
}

} // namespace

double BreakdownData::categoryTotal(int category) const
{
    double sum = 0;
    for (const auto& s : series)
        sum += s.values.at(std::size_t(category));
    return sum;
}

BreakdownData breakdownData(const Workload& w, const Architecture& arch, const model::EvaluationResult& r,
                            BreakdownMode mode)
{
    BreakdownData data;
    if (!r.valid || r.levels.empty())
        return data;
    for (const auto& level : r.levels)
        data.categories << QString::fromStdString(level.name);
    data.categories << QString::fromStdString(arch.compute.name);
    const std::size_t categories = std::size_t(data.categories.size());
    const std::size_t computeCategory = categories - 1;
    const int tensors = int(w.tensors.size());

    if (mode == BreakdownMode::Energy) {
        data.unit = "energy (pJ)";
        for (int t = 0; t < tensors; ++t) {
            BreakdownSeries s{QString::fromStdString(w.tensors[std::size_t(t)].name), tensorColor(w, t),
                              Qt::SolidPattern, std::vector<double>(categories, 0.0)};
            for (std::size_t l = 0; l < r.levels.size(); ++l)
                if (std::size_t(t) < r.levels[l].tensors.size())
                    s.values[l] = r.levels[l].tensors[std::size_t(t)].energyPj;
            data.series.push_back(std::move(s));
        }
        BreakdownSeries compute{"compute", computeColor(), Qt::SolidPattern,
                                std::vector<double>(categories, 0.0)};
        compute.values[computeCategory] = r.compute.energyPj;
        data.series.push_back(std::move(compute));
    } else {
        data.unit = "accesses (words; MACs)";
        const char* kinds[] = {"actual", "gated", "skipped"};
        // Gated accesses still take a cycle, skipped ones do not happen: lighter and lighter fills.
        const Qt::BrushStyle brushes[] = {Qt::SolidPattern, Qt::Dense3Pattern, Qt::Dense6Pattern};
        for (int t = 0; t < tensors; ++t) {
            for (int k = 0; k < 3; ++k) {
                BreakdownSeries s{QString::fromStdString(w.tensors[std::size_t(t)].name) + " " + kinds[k],
                                  tensorColor(w, t).darker(k == 0 ? 100 : 120), brushes[k],
                                  std::vector<double>(categories, 0.0)};
                for (std::size_t l = 0; l < r.levels.size(); ++l) {
                    if (std::size_t(t) >= r.levels[l].tensors.size())
                        continue;
                    const auto& x = r.levels[l].tensors[std::size_t(t)];
                    if (!x.kept && !x.streamed)
                        continue;
                    auto pick = [k](const model::ActionSplit& a) {
                        return k == 0 ? a.actual : k == 1 ? a.gated : a.skipped;
                    };
                    s.values[l] = (pick(x.reads) + pick(x.fills) + pick(x.updates)) * x.instances;
                }
                data.series.push_back(std::move(s));
            }
        }
        const double computes[] = {r.compute.actual, r.compute.gated, r.compute.skipped};
        for (int k = 0; k < 3; ++k) {
            BreakdownSeries s{QString("compute ") + kinds[k], computeColor().darker(k == 0 ? 100 : 120),
                              brushes[k], std::vector<double>(categories, 0.0)};
            s.values[computeCategory] = computes[k];
            data.series.push_back(std::move(s));
        }
    }
    data.series.erase(std::remove_if(data.series.begin(), data.series.end(), allZero), data.series.end());
    return data;
}

} // namespace sparsemap::ui::design
