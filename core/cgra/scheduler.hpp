#pragma once
// Schedulers for a sparse block on a streaming CGRA.
//  - scheduleSparseMap: Algorithm 1 of the CGRA SparseMap paper with its three techniques, each of
//    which can be switched off (the paper's Table 4 ablation): AIBA (association-oriented input bus
//    allocation), Mul-CI (multicasting an input over extra buses through the crossbar) and RID-AT
//    (rebuilding each kernel's adder tree after the multiplications are scheduled).
//  - scheduleBaseline: a classic list form of iterative modulo scheduling (Rau's IMS without
//    backtracking) standing in for BusMap's scheduler, which the paper compares against. See
//    docs/cgra.md for exactly what it does.
// Both start at II = max(MII, startIi) and retry with II + 1 when an attempt fails.
#include "cgra/schedule.hpp"

#include <optional>
#include <string>

namespace sparsemap::cgra {

struct SchedulerOptions {
    bool aiba = true;
    bool mulCi = true; // also needs CgraSpec::multicast
    bool ridAt = true;
    bool operator==(const SchedulerOptions&) const = default;
};

enum class SchedulerKind { SparseMap, Baseline };

struct ScheduleOutcome {
    bool success = false;
    Schedule schedule; // valid when success
    int mii = 0;
    int firstTriedIi = 0; // the II the search started from
    std::string failure;  // why the last attempt failed (empty on success)
};

ScheduleOutcome scheduleSparseMap(const SparseBlock& block, const CgraSpec& cgra,
                                  const SchedulerOptions& options = {}, int startIi = 0);
ScheduleOutcome scheduleBaseline(const SparseBlock& block, const CgraSpec& cgra, int startIi = 0);

// One scheduling attempt at a fixed II: the schedule, or nullopt with the reason in `failure`.
std::optional<Schedule> trySparseMapAt(const SparseBlock& block, const CgraSpec& cgra,
                                       const SchedulerOptions& options, int ii, std::string& failure);
std::optional<Schedule> tryBaselineAt(const SparseBlock& block, const CgraSpec& cgra, int ii,
                                      std::string& failure);

// The RID-AT step on its own, for a kernel whose multiplications are already placed: rebuilds the
// adder tree greedily (paper Section 4.1, step 2) with unlimited PEs. Used to reproduce Fig. 5.
// Returns the addition times; `mcids` receives the number of internal edges spanning > 1 cycle.
std::vector<int> rebuildAdderTreeTimes(const std::vector<int>& multiplicationTimes, int& mcids);
// The fixed balanced tree scheduled as soon as possible, same interface.
std::vector<int> fixedAdderTreeTimes(const std::vector<int>& multiplicationTimes, int& mcids);

} // namespace sparsemap::cgra
