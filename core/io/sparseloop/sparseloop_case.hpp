#pragma once
// One Sparseloop (Timeloop v0.3) evaluation case as our core types see it: the workload, the
// architecture, the mapping and the sparse strategy, plus what Sparseloop's input says that those
// types cannot hold but the model needs to reproduce Sparseloop (the `...Extras` below). Imported by
// importSparseloopCase, written by exportSparseloopCase (sparseloop_import.hpp / sparseloop_export.hpp).
#include "arch/architecture.hpp"
#include "design/design.hpp"
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace sparsemap {

// Sparseloop's `action-optimization` types. In the SparseStrategy, Gating is SgKind::Gate,
// SkippingSpatial SgKind::SpatialSkip, Skipping and PositionSkipping SgKind::Skip (position skipping
// with an empty conditionOn); the model needs the exact type (model-notes-sparse §4.5 and §4.7).
enum class SparseloopSafType { Gating, Skipping, SkippingSpatial, PositionSkipping };

// One `action-optimization` entry, in file order. `conditionOn` empty = the target's own empty
// positions (Sparseloop's `condition-on: []`).
struct SparseloopActionOptimization {
    int storageLevel = 0; // index into Architecture::levels
    SparseloopSafType type = SparseloopSafType::Skipping;
    int target = 0;               // tensor index
    std::vector<int> conditionOn; // tensor indices
    bool operator==(const SparseloopActionOptimization&) const = default;
};

// `compute-optimization` at the arithmetic level. The compute SgSite then holds, for every input
// tensor, an action of that kind conditioned on the other inputs (Sparseloop's compute gating and
// skipping look at every operand).
enum class SparseloopComputeOptimization { None, Gating, Skipping };

// Per storage level (same index as Architecture::levels).
struct SparseloopLevelExtras {
    // `metadata_storage_width` as written (0 = absent). Timeloop charges ceil(bits / width) metadata
    // accesses and none when it is 0; StorageLevel::metadataWordBits falls back to wordBits instead.
    int metadataStorageWidthBits = 0;
    // The level's default bits per metadata / payload word for ranks without `metadata-word-bits`
    // (attribute `metadata_datawidth` or `metadata_word_bits`); -1 = absent (Sparseloop then uses 0).
    int defaultMetadataWordBits = -1;
    int clusterSize = 1;           // `cluster-size`; the block size is already divided by it
    double multipleBuffering = 1.; // effective capacity = floor(size / multipleBuffering)
    // `rank-application-order` per tensor as written ("inner-to-outer", "outer-to-inner"), "" = absent
    // (Sparseloop's default: outer-to-inner).
    std::vector<std::string> rankApplicationOrder;
    // Written as `decompression_supported` and `compression_supported` (Sparseloop refuses a compressed
    // parent feeding an uncompressed child without them). Not read back (the model does not need it).
    bool compressionSupported = false;
    bool operator==(const SparseloopLevelExtras&) const = default;
};

struct SparseloopCase {
    std::string name; // the case folder's name (empty for the three-file overload)
    Workload workload;
    Architecture architecture;
    Mapping mapping;
    SparseStrategy sparse;

    std::vector<SparseloopLevelExtras> levels;                     // per storage level
    std::vector<SparseloopActionOptimization> actionOptimizations; // file order
    SparseloopComputeOptimization computeOptimization = SparseloopComputeOptimization::None;
    // What was assumed or dropped while importing, one sentence each (defaults applied, ignored
    // keys, ERT actions not kept); shown to the user, never needed by the model.
    std::vector<std::string> notes;

    Design design() const { return Design{mapping, sparse}; }
};

std::string_view sparseloopSafTypeName(SparseloopSafType type);

} // namespace sparsemap
