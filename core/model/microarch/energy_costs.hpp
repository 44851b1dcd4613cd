#pragma once
// Energy of every fine-grained action at one level, resolved once from the architecture's energy
// table with Timeloop's name fallbacks (docs/model-notes-dataflow.md §1.2): fills and updates cost
// `write`; a skipped action costs its gated counterpart unless `skipped_*` is listed; a missing
// data action costs the level's most expensive listed action (Timeloop's vector access energy);
// any other missing action costs 0. Storage energies are per physical access (a block of words;
// metadata: one metadata word).
#include "arch/architecture.hpp"

namespace sparsemap::model {

struct AccessEnergy {
    double actual = 0, gated = 0, skipped = 0;
};

struct LevelEnergyCosts {
    AccessEnergy read, fill, update;
    AccessEnergy metadataRead, metadataFill, metadataUpdate;
};

struct ComputeEnergyCosts {
    double actual = 0, gated = 0, skipped = 0;
};

LevelEnergyCosts resolveLevelEnergy(const StorageLevel& level);
ComputeEnergyCosts resolveComputeEnergy(const ComputeUnit& compute);

} // namespace sparsemap::model
