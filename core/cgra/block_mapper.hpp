#pragma once
// The whole mapping flow for one block (paper Fig. 2): schedule from MII, bind; when binding fails,
// schedule again at II + 1 and bind, up to a limit. Reports the paper's Table 3 columns: MII, the first
// attempt's II_0, COPs and MCIDs and whether it mapped, the final II and the speed-up over the dense
// block (dense MII / II).
#include "cgra/binder.hpp"
#include "cgra/scheduler.hpp"

#include <functional>
#include <string>
#include <vector>

namespace sparsemap::cgra {

// The variants the CLI, the view and the ablation study run.
enum class MappingVariant {
    SparseMap,    // AIBA + Mul-CI + RID-AT
    AibaMulCi,    // Table 4, middle column
    Aiba,         // Table 4, left column
    NoTechniques, // Algorithm 1 with all three switched off
    Baseline,     // classic modulo scheduler (see scheduler.hpp)
};

std::string variantName(MappingVariant variant);  // "sparsemap", "aiba+mulci", ...
std::string variantTitle(MappingVariant variant); // "SparseMap (AIBA + Mul-CI + RID-AT)", ...
bool parseVariant(const std::string& name, MappingVariant& variant);
SchedulerOptions optionsOf(MappingVariant variant); // the techniques a SparseMap variant uses

struct MappingOptions {
    MappingVariant variant = MappingVariant::SparseMap;
    BinderOptions binder;
    int maxExtraIi = 4; // give up ("Failed") after this many II increases past the first attempt
    // Called before each scheduling and binding attempt ("scheduling from II 65", "binding at II 71"):
    // a large block on a large CGRA takes a minute, and a caller can show that it is under way.
    std::function<void(const std::string&)> progress;
    // Asked before each scheduling and binding attempt; true stops the mapping there (the result says
    // `cancelled`, keeping what the attempts before found). Empty = never cancelled.
    std::function<bool()> cancelled;
};

struct BlockMapping {
    std::string blockName;
    MappingVariant variant = MappingVariant::SparseMap;
    SdfgCounts counts;
    int mii = 0;
    int denseMii = 0;
    bool scheduled = false; // the scheduler found some II
    int firstIi = 0;        // II_0
    int firstCops = 0;
    int firstMcids = 0;
    bool firstSuccess = false;
    bool success = false; // mapped at some II
    int finalIi = 0;      // valid when success
    double speedup = 0.0; // denseMii / finalIi, when success
    Schedule firstSchedule;
    Schedule finalSchedule; // the last schedule tried (the mapped one when success)
    BindingResult finalBinding;
    std::vector<std::string> checkerProblems; // of every schedule tried; empty when all were valid
    std::string failure;                      // when !success
    bool cancelled = false;                   // MappingOptions::cancelled stopped it
};

// Throws InputError for an invalid block or CGRA.
BlockMapping mapBlock(const SparseBlock& block, const CgraSpec& cgra, const MappingOptions& options = {});

} // namespace sparsemap::cgra
