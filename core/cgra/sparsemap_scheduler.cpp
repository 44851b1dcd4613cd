// Algorithm 1 of the CGRA SparseMap paper ("Scheduling with reduced COPs & MCIDs").
#include "cgra/schedule_builder.hpp"
#include "cgra/scheduler.hpp"

#include <algorithm>
#include <tuple>

namespace sparsemap::cgra {

namespace {

// Association of two channels: the number of kernels that need both (paper Section 2.1).
int association(const SparseBlock& block, int c1, int c2)
{
    int n = 0;
    for (int k = 0; k < block.kernels; ++k)
        n += block.weight(k, c1) && block.weight(k, c2);
    return n;
}

// AIBA: the next input reading to put on a bus at time t. With readings already at t, the one most
// associated with them; at an empty time step, the reading with the strongest association to any other
// unallocated reading, so that the pair lands together. Ties: larger fan-out, then lower channel.
int pickAiba(const SparseBlock& block, const std::vector<int>& unscheduled, const std::vector<int>& atT)
{
    int best = -1;
    std::tuple<int, int, int> bestKey{-1, -1, 0};
    for (int c : unscheduled) {
        int score = 0;
        if (!atT.empty()) {
            for (int s : atT)
                score += association(block, c, s);
        } else {
            for (int o : unscheduled)
                if (o != c)
                    score = std::max(score, association(block, c, o));
        }
        const std::tuple<int, int, int> key{score, block.fanout(c), -c};
        if (best < 0 || key > bestKey) {
            best = c;
            bestKey = key;
        }
    }
    return best;
}

} // namespace

std::optional<Schedule> trySparseMapAt(const SparseBlock& block, const CgraSpec& cgra,
                                       const SchedulerOptions& options, int ii, std::string& failure)
{
    detail::ScheduleBuilder b(block, cgra, ii);
    std::vector<int> unscheduled;
    for (int c = 0; c < block.channels; ++c)
        if (b.readOf(c) >= 0)
            unscheduled.push_back(c);
    const int n = cgra.busFanout();
    std::vector<int> pending; // multiplications left to their COPs
    std::vector<int> atT;     // channels allocated at the current t
    int t = 0, idle = 0;
    while (!unscheduled.empty()) {
        // Lines 5-9: move on when every input bus of this modulo slot is taken. We also move on when no
        // PE is free (not even one for a COP); after II such steps in a row no slot can take it.
        if (b.freeInputBuses(t) == 0 || b.freePes(t) == 0) {
            ++t;
            atT.clear();
            if (++idle >= ii) {
                failure = "no modulo slot has both a free input bus and a free PE for input reading r" +
                          std::to_string(unscheduled.front());
                return std::nullopt;
            }
            continue;
        }
        idle = 0;
        // Line 10: choose r (AIBA, or channel order without it) and allocate a bus at t.
        const int channel = options.aiba ? pickAiba(block, unscheduled, atT) : unscheduled.front();
        std::erase(unscheduled, channel);
        atT.push_back(channel);
        const int read = b.readOf(channel);
        b.place(read, t);
        const auto& muls = b.mulsOfChannel(channel);
        const int f = int(muls.size());
        if (f <= b.freePes(t)) {
            if (f <= n) { // lines 12-16: one bus column reaches them all
                b.feedDirect(read, muls, t, 0);
                continue;
            }
            // Line 17, Mul-CI: multicast r over ceil(f / N) - 1 more buses at t when they are free.
            const int extra = (f + n - 1) / n - 1;
            if (options.mulCi && cgra.multicast && extra <= b.freeInputBuses(t)) {
                b.feedDirect(read, muls, t, extra);
                continue;
            }
        }
        // Lines 20 and 24: schedule with caching (always possible here: a PE is free at t).
        b.cacheReading(read, muls, t, pending);
    }
    if (!b.scheduleCachedMuls(pending, failure)) // line 29
        return std::nullopt;
    if (!(options.ridAt ? b.rebuildTrees(failure) : b.scheduleFixedTrees(failure))) // line 30
        return std::nullopt;
    if (!b.scheduleWrites(failure)) // line 31
        return std::nullopt;
    return std::move(b.schedule());
}

namespace {

int maxIiFor(const SparseBlock& block)
{
    const auto counts = countsOf(block);
    // At this II every node has a modulo slot to itself; no attempt can fail for lack of resources.
    return counts.ops + 2 * counts.reads + 2 * counts.writes + 4;
}

template <typename Attempt>
ScheduleOutcome searchIi(const SparseBlock& block, const CgraSpec& cgra, int startIi, Attempt attempt)
{
    validateCgra(cgra);
    validateBlock(block);
    ScheduleOutcome outcome;
    outcome.mii = minimumIi(countsOf(block), cgra);
    outcome.firstTriedIi = std::max(outcome.mii, startIi);
    const int last = std::max(outcome.firstTriedIi, maxIiFor(block));
    for (int ii = outcome.firstTriedIi; ii <= last; ++ii) {
        std::string failure;
        if (auto schedule = attempt(ii, failure)) {
            outcome.success = true;
            outcome.schedule = std::move(*schedule);
            outcome.failure.clear();
            return outcome;
        }
        outcome.failure = "II " + std::to_string(ii) + ": " + failure;
    }
    return outcome;
}

} // namespace

ScheduleOutcome scheduleSparseMap(const SparseBlock& block, const CgraSpec& cgra,
                                  const SchedulerOptions& options, int startIi)
{
    return searchIi(block, cgra, startIi, [&](int ii, std::string& failure) {
        return trySparseMapAt(block, cgra, options, ii, failure);
    });
}

ScheduleOutcome scheduleBaseline(const SparseBlock& block, const CgraSpec& cgra, int startIi)
{
    return searchIi(block, cgra, startIi,
                    [&](int ii, std::string& failure) { return tryBaselineAt(block, cgra, ii, failure); });
}

namespace {

// A one-kernel block with the given multiplication times on an array large enough never to run out of
// PEs: what is left is the adder tree's own shape.
std::vector<int> treeTimes(const std::vector<int>& mulTimes, bool rebuild, int& mcids)
{
    const int count = int(mulTimes.size());
    SparseBlock block;
    block.channels = count;
    block.kernels = 1;
    block.mask.assign(std::size_t(count), 1);
    CgraSpec big;
    big.rows = big.cols = kMaxCgraSide;
    int last = 0;
    for (int t : mulTimes)
        last = std::max(last, t);
    detail::ScheduleBuilder b(block, big, last + 2 * count + 2);
    for (int i = 0; i < count; ++i)
        b.place(b.mulsOfKernel(0)[std::size_t(i)], mulTimes[std::size_t(i)]);
    std::string failure;
    if (rebuild)
        b.rebuildTrees(failure);
    else
        b.scheduleFixedTrees(failure);
    std::vector<int> adds;
    const auto& s = b.schedule();
    for (std::size_t v = 0; v < s.graph.nodes.size(); ++v)
        if (s.graph.nodes[v].kind == NodeKind::Add)
            adds.push_back(s.time[v]);
    mcids = s.mcidCount();
    return adds;
}

} // namespace

std::vector<int> rebuildAdderTreeTimes(const std::vector<int>& multiplicationTimes, int& mcids)
{
    return treeTimes(multiplicationTimes, true, mcids);
}

std::vector<int> fixedAdderTreeTimes(const std::vector<int>& multiplicationTimes, int& mcids)
{
    return treeTimes(multiplicationTimes, false, mcids);
}

} // namespace sparsemap::cgra
