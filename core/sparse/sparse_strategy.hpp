#pragma once
// The sparse strategy of a design: the compression format of every tensor at every storage level,
// and the skipping/gating (S/G) actions at storage levels and at compute.
#include "sparse/rank_format.hpp"

#include <string>
#include <vector>

namespace sparsemap {

// One rank of a tensor's tile at a storage level: a loop (dim at a mapping level) with bound > 1
// that indexes the tensor, with its format. Formats imported from Sparseloop are declared without
// a loop (mappingLevel -1); the model binds declared ranks to the tile's loops, innermost first.
struct FormatRank {
    int dim = 0;          // -1 when unknown
    int mappingLevel = 0; // -1 when not bound to a loop
    RankFormat format = RankFormat::U;
    int metadataBits = -1;          // bits per metadata unit; -1 = the format's default for the fiber
    int payloadBits = -1;           // bits per payload unit (offsets, pointers); -1 = the format's default
    std::vector<int> flattenedDims; // Sparseloop flattened_rankIDs: dims merged into this rank
    bool operator==(const FormatRank&) const = default;
};

struct TensorFormat {
    std::vector<FormatRank> ranks; // outer to inner
    // False when every rank is U (or there are no ranks): the tensor is stored uncompressed.
    bool compressed() const;
    // Whether the tile carries metadata (Sparseloop's HasMetaData), so that its zeros are absent from
    // the stream rather than present: some rank is not U, or, for ranks declared without a loop (as
    // imported from Sparseloop, which treats any multi-rank format so), there are two or more ranks.
    // A genome's all-U format means "stored uncompressed".
    bool hasMetadata() const;
    bool operator==(const TensorFormat&) const = default;
};

// Gate: the access happens as an idle (gated) cycle; Skip: it does not happen at all;
// SpatialSkip: the spatial instances below the level that would receive an ineffectual tile are not
// used (Sparseloop's skipping-spatial: fewer instances, same per-instance traffic).
enum class SgKind { Gate, Skip, SpatialSkip };

// "Skip target <- conditionOn": the target's accesses happen only where every conditionOn tensor is
// nonzero. A double-sided intersection (P <-> Q) is the pair of actions P <- Q and Q <- P.
struct SgAction {
    SgKind kind = SgKind::Gate;
    int target = 0;               // tensor index
    std::vector<int> conditionOn; // tensor indices (leaders)
    bool operator==(const SgAction&) const = default;
};

inline constexpr int kComputeSite = -1;

struct SgSite {
    int storageLevel = kComputeSite; // index into Architecture::levels, or kComputeSite
    std::vector<SgAction> actions;
    bool operator==(const SgSite&) const = default;
};

struct SparseStrategy {
    std::vector<std::vector<TensorFormat>> formats; // [storage level][tensor]
    std::vector<SgSite> sites;                      // in genome order (on-chip levels, then compute)
    bool operator==(const SparseStrategy&) const = default;
};

std::string_view sgKindName(SgKind kind);

// Sparseloop (2022 and later) models only tensors whose compressed ranks (B, RLE, CP) all lie below
// (inner of) their uncompressed ones (U, UOP): "lower rank uncompressed, upper rank compressed" is
// refused. A format whose every rank is U is no format (stored uncompressed) and always representable.
// Returns the first format Sparseloop cannot represent as (storage level, tensor), or {-1, -1}.
struct FormatSite {
    int storageLevel = -1;
    int tensor = -1;
};
FormatSite firstUnrepresentableFormat(const SparseStrategy& sparse);
bool representableInSparseloop(const TensorFormat& format);
// The ranks of `format` outer to inner with their formats, e.g. "U(K) CP(M) U(N)" given rank names.
std::string formatRanksText(const TensorFormat& format, const std::vector<std::string>& rankNames);
// The nearest representable format: the split (outer ranks uncompressed, inner ranks compressed) that
// changes the fewest ranks (ties: the one with more compressed ranks, i.e. the inner split kept
// longest); a compressed rank above the split becomes U, an uncompressed rank below it takes the format
// of the nearest compressed rank below it (or above, when none is below). Returns whether it changed.
bool makeRepresentableInSparseloop(TensorFormat& format);

} // namespace sparsemap
