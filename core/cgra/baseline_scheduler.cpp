// The comparison scheduler: a list form of Rau's iterative modulo scheduling (IMS) with no
// backtracking, made legal for a streaming CGRA, standing in for BusMap's scheduler (the paper's
// baseline, which it does not describe). It knows nothing of input associations, multicast or adder
// tree reconstruction:
//  1. input readings in channel order; each goes to the first time in its window [0, II - 1] where an
//     input bus is free and all its multiplications fit at that time in one bus column; failing that,
//     to the first time with a free bus and a free PE, and the multiplications that do not fit wait
//     behind a COP (the streaming I/O rule: a consumer of an input runs in the cycle it arrives);
//  2. cached multiplications at the first later time with a free PE;
//  3. each kernel's fixed balanced adder tree, additions as soon as possible (list scheduling);
//  4. output writings one cycle after the sum, or behind a COP.
#include "cgra/schedule_builder.hpp"
#include "cgra/scheduler.hpp"

namespace sparsemap::cgra {

std::optional<Schedule> tryBaselineAt(const SparseBlock& block, const CgraSpec& cgra, int ii,
                                      std::string& failure)
{
    detail::ScheduleBuilder b(block, cgra, ii);
    std::vector<int> pending;
    for (int c = 0; c < block.channels; ++c) {
        const int read = b.readOf(c);
        if (read < 0)
            continue;
        const auto& muls = b.mulsOfChannel(c);
        const int f = int(muls.size());
        int fits = -1, cacheAt = -1;
        for (int t = 0; t < ii && fits < 0; ++t) {
            if (b.freeInputBuses(t) == 0)
                continue;
            if (f <= cgra.busFanout() && f <= b.freePes(t))
                fits = t;
            else if (cacheAt < 0 && b.freePes(t) > 0)
                cacheAt = t;
        }
        if (fits >= 0) {
            b.place(read, fits);
            b.feedDirect(read, muls, fits, 0);
        } else if (cacheAt >= 0) {
            b.place(read, cacheAt);
            b.cacheReading(read, muls, cacheAt, pending);
        } else {
            failure = "no modulo slot has both a free input bus and a free PE for input reading r" +
                      std::to_string(c);
            return std::nullopt;
        }
    }
    if (!b.scheduleCachedMuls(pending, failure) || !b.scheduleFixedTrees(failure) ||
        !b.scheduleWrites(failure))
        return std::nullopt;
    return std::move(b.schedule());
}

} // namespace sparsemap::cgra
