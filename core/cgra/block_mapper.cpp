#include "cgra/block_mapper.hpp"

#include "cgra/schedule_checker.hpp"

namespace sparsemap::cgra {

std::string variantName(MappingVariant variant)
{
    switch (variant) {
    case MappingVariant::SparseMap:
        return "sparsemap";
    case MappingVariant::AibaMulCi:
        return "aiba+mulci";
    case MappingVariant::Aiba:
        return "aiba";
    case MappingVariant::NoTechniques:
        return "none";
    case MappingVariant::Baseline:
        return "baseline";
    }
    return "?";
}

std::string variantTitle(MappingVariant variant)
{
    switch (variant) {
    case MappingVariant::SparseMap:
        return "SparseMap (AIBA + Mul-CI + RID-AT)";
    case MappingVariant::AibaMulCi:
        return "AIBA + Mul-CI";
    case MappingVariant::Aiba:
        return "AIBA";
    case MappingVariant::NoTechniques:
        return "Algorithm 1, no techniques";
    case MappingVariant::Baseline:
        return "Baseline (list IMS)";
    }
    return "?";
}

bool parseVariant(const std::string& name, MappingVariant& variant)
{
    for (auto v : {MappingVariant::SparseMap, MappingVariant::AibaMulCi, MappingVariant::Aiba,
                   MappingVariant::NoTechniques, MappingVariant::Baseline})
        if (variantName(v) == name) {
            variant = v;
            return true;
        }
    return false;
}

SchedulerOptions optionsOf(MappingVariant variant)
{
    switch (variant) {
    case MappingVariant::AibaMulCi:
        return {true, true, false};
    case MappingVariant::Aiba:
        return {true, false, false};
    case MappingVariant::NoTechniques:
        return {false, false, false};
    default:
        return {true, true, true};
    }
}

BlockMapping mapBlock(const SparseBlock& block, const CgraSpec& cgra, const MappingOptions& options)
{
    validateCgra(cgra);
    validateBlock(block);
    BlockMapping out;
    out.blockName = block.name;
    out.variant = options.variant;
    out.counts = countsOf(block);
    out.mii = minimumIi(out.counts, cgra);
    out.denseMii = denseMinimumIi(block.channels, block.kernels, cgra);
    const auto schedule = [&](int startIi) {
        return options.variant == MappingVariant::Baseline
                   ? scheduleBaseline(block, cgra, startIi)
                   : scheduleSparseMap(block, cgra, optionsOf(options.variant), startIi);
    };
    int startIi = out.mii;
    // Reports the stage; false when the caller cancelled before it.
    const auto report = [&](const std::string& stage, int ii) {
        if (options.cancelled && options.cancelled()) {
            out.cancelled = true;
            out.success = false;
            out.failure = "cancelled before " + stage + std::to_string(ii);
            return false;
        }
        if (options.progress)
            options.progress(stage + std::to_string(ii));
        return true;
    };
    for (int attempt = 0; attempt <= options.maxExtraIi; ++attempt) {
        if (!report("scheduling from II ", startIi))
            return out;
        auto outcome = schedule(startIi);
        if (!outcome.success) {
            out.failure = "scheduling failed: " + outcome.failure;
            return out;
        }
        const Schedule& s = outcome.schedule;
        for (const auto& problem : checkSchedule(s, block, cgra))
            out.checkerProblems.push_back("II " + std::to_string(s.ii) + ": " + problem);
        if (attempt == 0) {
            out.scheduled = true;
            out.firstIi = s.ii;
            out.firstCops = s.copCount();
            out.firstMcids = s.mcidCount();
            out.firstSchedule = s;
        }
        out.finalSchedule = s;
        if (!report("binding at II ", s.ii))
            return out;
        out.finalBinding = bindSchedule(s, cgra, options.binder);
        if (attempt == 0)
            out.firstSuccess = out.finalBinding.success;
        if (out.finalBinding.success) {
            out.success = true;
            out.finalIi = s.ii;
            out.speedup = double(out.denseMii) / double(s.ii);
            out.failure.clear();
            return out;
        }
        out.failure = "binding failed at II " + std::to_string(s.ii) + ": " + out.finalBinding.failure;
        startIi = s.ii + 1;
    }
    return out;
}

} // namespace sparsemap::cgra
