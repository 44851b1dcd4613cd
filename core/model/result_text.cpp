#include "model/result_text.hpp"

#include <cstdio>

namespace sparsemap::model {

namespace {

std::string format(const char* fmt, double value)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, value);
    return buf;
}

// 1.23e+06 style for wide ranges, plain for small integers.
std::string count(double x)
{
    if (x == 0)
        return "0";
    if (x < 1e6 && x == static_cast<double>(static_cast<long long>(x)))
        return format("%.0f", x);
    return format("%.3g", x);
}

std::string split(const ActionSplit& s)
{
    if (s.gated == 0 && s.skipped == 0)
        return count(s.actual);
    return count(s.actual) + "/" + count(s.gated) + "/" + count(s.skipped);
}

} // namespace

std::string renderSummary(const EvaluationResult& r)
{
    std::string out;
    if (!r.valid)
        return "invalid: " + r.reason + "\n";
    out += "valid\n";
    if (!r.beyondSparseloop.empty())
        out += "note         beyond Sparseloop: " + r.beyondSparseloop + "\n";
    if (!r.sparseloopArtefact.empty())
        out += "note         Sparseloop artefact: " + r.sparseloopArtefact + "\n";
    out += "cycles       " + count(r.cycles) + "\n";
    out +=
        "energy       " + format("%.6g", r.energyPj) + " pJ (" + format("%.4g", r.energyPj / 1e6) + " uJ)\n";
    out += "EDP          " + format("%.6g", r.edp) + " cycles x pJ\n";
    out += "utilization  " + format("%.1f", 100 * r.utilization) + " % of the MACs\n";
    out += "computes     " + count(r.compute.actual) + " actual, " + count(r.compute.gated) + " gated, " +
           count(r.compute.skipped) + " skipped of " + count(r.compute.algorithmic) + " (dense)\n";
    return out;
}

std::string renderBreakdown(const Workload& w, const Architecture& a, const EvaluationResult& r)
{
    if (!r.valid)
        return {};
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "%-10s %-6s %9s %10s %10s %8s %22s %22s %22s %14s %12s\n", "level",
                  "tensor", "instances", "tile", "occupancy", "density", "reads a/g/s", "fills a/g/s",
                  "updates a/g/s", "metadata bits", "energy pJ");
    out += line;
    for (std::size_t s = 0; s < r.levels.size(); ++s) {
        const auto& level = r.levels[s];
        for (std::size_t t = 0; t < level.tensors.size(); ++t) {
            const auto& x = level.tensors[t];
            if (!x.kept && !x.streamed)
                continue;
            const double md = x.metadataReads.total() + x.metadataFills.total() + x.metadataUpdates.total();
            std::snprintf(line, sizeof line, "%-10s %-6s %9s %10s %10s %8.3f %22s %22s %22s %14s %12.4g\n",
                          a.levels[s].name.c_str(), (w.tensors[t].name + (x.streamed ? "~" : "")).c_str(),
                          count(x.instances).c_str(), count(x.tile).c_str(), count(x.maxDataWords).c_str(),
                          x.expectedDensity, split(x.reads).c_str(), split(x.fills).c_str(),
                          split(x.updates).c_str(), count(md).c_str(), x.energyPj);
            out += line;
        }
        std::snprintf(line, sizeof line, "%-10s %-6s %9s cycles %s, throttling %.3f, %.3g pJ\n",
                      a.levels[s].name.c_str(), "total", count(level.instances).c_str(),
                      count(level.cycles).c_str(), level.throttling, level.energyPj);
        out += line;
    }
    std::snprintf(line, sizeof line, "%-10s %-6s %9s cycles %s, %.3g pJ\n", a.compute.name.c_str(), "",
                  count(r.compute.instances).c_str(), count(r.compute.cycles).c_str(), r.compute.energyPj);
    out += line;
    out += "(counts per instance; occupancy = data words the tile needs at the capacity quantile; a/g/s = "
           "actual/gated/skipped; ~ = streamed)\n";
    return out;
}

} // namespace sparsemap::model
