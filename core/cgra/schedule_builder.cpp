#include "cgra/schedule_builder.hpp"

#include <algorithm>

namespace sparsemap::cgra::detail {

ScheduleBuilder::ScheduleBuilder(const SparseBlock& block, const CgraSpec& cgra, int ii)
    : m_block(block), m_cgra(cgra), m_ii(ii), m_peUse(std::size_t(ii), 0), m_inUse(std::size_t(ii), 0),
      m_outUse(std::size_t(ii), 0), m_readOf(std::size_t(block.channels), -1),
      m_mulsOfChannel(std::size_t(block.channels)), m_mulsOfKernel(std::size_t(block.kernels)),
      m_rootOf(std::size_t(block.kernels), -1), m_writeOf(std::size_t(block.kernels), -1)
{
    m_schedule.ii = ii;
    for (int c = 0; c < block.channels; ++c)
        if (block.fanout(c) > 0)
            m_readOf[std::size_t(c)] = addNode({NodeKind::Read, c, -1, -1});
    for (int k = 0; k < block.kernels; ++k)
        for (int c = 0; c < block.channels; ++c)
            if (block.weight(k, c)) {
                const int m = addNode({NodeKind::Mul, c, k, -1});
                m_mulsOfChannel[std::size_t(c)].push_back(m);
                m_mulsOfKernel[std::size_t(k)].push_back(m);
            }
}

int ScheduleBuilder::addNode(const SdfgNode& node)
{
    m_schedule.time.push_back(-1);
    return m_schedule.graph.addNode(node);
}

void ScheduleBuilder::place(int node, int t)
{
    m_schedule.time[std::size_t(node)] = t;
    const auto kind = m_schedule.graph.nodes[std::size_t(node)].kind;
    const auto slot = std::size_t(t % m_ii);
    if (kind == NodeKind::Read)
        ++m_inUse[slot];
    else if (kind == NodeKind::Write)
        ++m_outUse[slot];
    else
        ++m_peUse[slot];
}

int ScheduleBuilder::kernelMatesAt(int kernel, int t) const
{
    int n = 0;
    for (int m : m_mulsOfKernel[std::size_t(kernel)])
        n += m_schedule.time[std::size_t(m)] == t;
    return n;
}

void ScheduleBuilder::feedDirect(int read, const std::vector<int>& muls, int t, int extraBuses)
{
    std::vector<int> sources{read};
    const int channel = m_schedule.graph.nodes[std::size_t(read)].channel;
    for (int i = 0; i < extraBuses; ++i) {
        const int copy = addNode({NodeKind::Read, channel, -1, read});
        place(copy, t);
        sources.push_back(copy);
    }
    // Each bus reaches one column of N PEs: the first N multiplications on the first bus, and so on.
    for (std::size_t i = 0; i < muls.size(); ++i) {
        addEdge(sources[std::min(sources.size() - 1, i / std::size_t(m_cgra.busFanout()))], muls[i]);
        place(muls[i], t);
    }
}

void ScheduleBuilder::cacheReading(int read, const std::vector<int>& muls, int t, std::vector<int>& pending)
{
    const int f = int(muls.size());
    // The COP takes the input from the same bus, so it shares the bus's column with the direct ones.
    const int direct = std::max(0, std::min({f - 1, m_cgra.busFanout() - 1, freePes(t) - 1}));
    // Keep at t the multiplications whose kernels already have partners at t (fewer MCIDs later).
    std::vector<int> order = muls;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return kernelMatesAt(m_schedule.graph.nodes[std::size_t(a)].kernel, t) >
               kernelMatesAt(m_schedule.graph.nodes[std::size_t(b)].kernel, t);
    });
    for (int i = 0; i < direct; ++i) {
        addEdge(read, order[std::size_t(i)]);
        place(order[std::size_t(i)], t);
    }
    const int channel = m_schedule.graph.nodes[std::size_t(read)].channel;
    const int cop = addNode({NodeKind::Cop, channel, -1, -1});
    addEdge(read, cop);
    place(cop, t);
    for (int i = direct; i < f; ++i) {
        addEdge(cop, order[std::size_t(i)]);
        pending.push_back(order[std::size_t(i)]);
    }
}

bool ScheduleBuilder::scheduleCachedMuls(std::vector<int> pending, std::string& failure)
{
    const auto copOf = [&](int mul) { return m_schedule.graph.producers(mul).front(); };
    std::stable_sort(pending.begin(), pending.end(),
                     [&](int a, int b) { return time(copOf(a)) < time(copOf(b)); });
    for (int mul : pending) {
        const int earliest = time(copOf(mul)) + 1;
        bool placed = false;
        for (int t = earliest; t < earliest + m_ii && !placed; ++t)
            if (freePes(t) > 0) {
                place(mul, t);
                placed = true;
            }
        if (!placed) {
            failure =
                "no free PE in any modulo slot for cached multiplication " + m_schedule.graph.label(mul);
            return false;
        }
    }
    return true;
}

bool ScheduleBuilder::scheduleFixedTrees(std::string& failure)
{
    // Per kernel: the balanced pairs with references resolved as the adds get created.
    struct KernelTree {
        std::vector<std::pair<int, int>> pairs;
        std::vector<int> adds;
        std::size_t next = 0;
    };
    std::vector<KernelTree> trees(std::size_t(m_block.kernels));
    for (int k = 0; k < m_block.kernels; ++k) {
        const auto& leaves = m_mulsOfKernel[std::size_t(k)];
        if (leaves.size() == 1)
            m_rootOf[std::size_t(k)] = leaves.front();
        trees[std::size_t(k)].pairs = balancedTreePairs(int(leaves.size()));
    }
    const auto resolve = [&](int k, int ref) {
        return ref >= 0 ? m_mulsOfKernel[std::size_t(k)][std::size_t(ref)]
                        : trees[std::size_t(k)].adds[std::size_t(-ref - 1)];
    };
    // List scheduling: always the addition (next in each kernel's tree order) that is ready earliest.
    for (;;) {
        int bestKernel = -1, bestReady = 0;
        for (int k = 0; k < m_block.kernels; ++k) {
            auto& tree = trees[std::size_t(k)];
            if (tree.next >= tree.pairs.size())
                continue;
            const auto [a, b] = tree.pairs[tree.next];
            const int ready = std::max(time(resolve(k, a)), time(resolve(k, b))) + 1;
            if (bestKernel < 0 || ready < bestReady) {
                bestKernel = k;
                bestReady = ready;
            }
        }
        if (bestKernel < 0)
            return true;
        auto& tree = trees[std::size_t(bestKernel)];
        const auto [a, b] = tree.pairs[tree.next++];
        const int add = addNode({NodeKind::Add, -1, bestKernel, -1});
        addEdge(resolve(bestKernel, a), add);
        addEdge(resolve(bestKernel, b), add);
        tree.adds.push_back(add);
        m_rootOf[std::size_t(bestKernel)] = add;
        bool placed = false;
        for (int t = bestReady; t < bestReady + m_ii && !placed; ++t)
            if (freePes(t) > 0) {
                place(add, t);
                placed = true;
            }
        if (!placed) {
            failure = "no free PE in any modulo slot for an addition of kernel " + std::to_string(bestKernel);
            return false;
        }
    }
}

bool ScheduleBuilder::rebuildTrees(std::string& failure)
{
    // Unaccumulated operations per kernel (multiplications, then the additions RID-AT creates).
    std::vector<std::vector<int>> open(std::size_t(m_block.kernels));
    int tau = -1;
    for (int k = 0; k < m_block.kernels; ++k) {
        open[std::size_t(k)] = m_mulsOfKernel[std::size_t(k)];
        for (int m : open[std::size_t(k)])
            tau = tau < 0 ? time(m) + 1 : std::min(tau, time(m) + 1);
        if (open[std::size_t(k)].size() == 1) {
            m_rootOf[std::size_t(k)] = open[std::size_t(k)].front();
            writeDirectly(k, m_rootOf[std::size_t(k)]);
        }
    }
    // Each kernel's writing is booked as soon as its sum is complete (line 31 in completion order).
    int stalled = 0;
    for (;;) {
        bool remaining = false, waiting = false, progress = false;
        // Kernels whose oldest ready operation is oldest go first: their MCIDs grow fastest.
        std::vector<std::pair<int, int>> order; // (oldest ready time, kernel)
        for (int k = 0; k < m_block.kernels; ++k) {
            const auto& ops = open[std::size_t(k)];
            if (ops.size() < 2)
                continue;
            remaining = true;
            int oldest = tau, ready = 0;
            for (int v : ops)
                if (time(v) < tau) {
                    ++ready;
                    oldest = std::min(oldest, time(v));
                }
            if (ready >= 2)
                order.emplace_back(oldest, k);
        }
        if (!remaining)
            return true;
        std::sort(order.begin(), order.end());
        for (const auto& [oldest, k] : order) {
            auto& ops = open[std::size_t(k)];
            for (;;) {
                std::vector<int> ready;
                for (int v : ops)
                    if (time(v) < tau)
                        ready.push_back(v);
                if (ready.size() < 2)
                    break;
                if (freePes(tau) == 0) {
                    waiting = true;
                    break;
                }
                const bool last = ops.size() == 2;
                // Pair the two latest-ready operations: their dependencies span the fewest cycles.
                std::stable_sort(ready.begin(), ready.end(), [&](int a, int b) { return time(a) > time(b); });
                const int add = addNode({NodeKind::Add, -1, k, -1});
                addEdge(ready[0], add);
                addEdge(ready[1], add);
                place(add, tau);
                std::erase(ops, ready[0]);
                std::erase(ops, ready[1]);
                ops.push_back(add);
                m_rootOf[std::size_t(k)] = add;
                if (last)
                    writeDirectly(k, add);
                progress = true;
            }
        }
        if (!progress && waiting) {
            if (++stalled >= m_ii) {
                failure = "RID-AT: every modulo slot's PEs are taken while additions are pending";
                return false;
            }
        } else {
            stalled = 0;
        }
        ++tau;
    }
}

bool ScheduleBuilder::writeDirectly(int kernel, int root)
{
    if (freeOutputBuses(time(root) + 1) == 0)
        return false;
    const int w = addNode({NodeKind::Write, -1, kernel, -1});
    addEdge(root, w);
    place(w, time(root) + 1);
    m_writeOf[std::size_t(kernel)] = w;
    return true;
}

bool ScheduleBuilder::scheduleWrites(std::string& failure)
{
    std::vector<int> kernels;
    for (int k = 0; k < m_block.kernels; ++k)
        if (m_rootOf[std::size_t(k)] >= 0 && m_writeOf[std::size_t(k)] < 0)
            kernels.push_back(k);
    std::stable_sort(kernels.begin(), kernels.end(), [&](int a, int b) {
        return time(m_rootOf[std::size_t(a)]) < time(m_rootOf[std::size_t(b)]);
    });
    for (int k : kernels) {
        const int root = m_rootOf[std::size_t(k)];
        const int t3 = time(root) + 1;
        if (writeDirectly(k, root))
            continue;
        const int w = addNode({NodeKind::Write, -1, k, -1});
        m_writeOf[std::size_t(k)] = w;
        // No output bus one cycle after the sum: hold the sum in a COP until one is free.
        bool placed = false;
        for (int t = t3; t < t3 + m_ii && !placed; ++t)
            if (freePes(t) > 0 && freeOutputBuses(t + 1) > 0) {
                const int cop = addNode({NodeKind::Cop, -1, k, -1});
                addEdge(root, cop);
                place(cop, t);
                addEdge(cop, w);
                place(w, t + 1);
                placed = true;
            }
        if (!placed) {
            failure = "no modulo slot with a free PE for a COP followed by a free output bus for w" +
                      std::to_string(k);
            return false;
        }
    }
    return true;
}

} // namespace sparsemap::cgra::detail
