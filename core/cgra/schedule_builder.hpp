#pragma once
// The machinery both schedulers share: the scheduled graph under construction, the modulo resource
// tables T_PE, T_I, T_O of Algorithm 1, and the steps after the input readings (remaining
// multiplications, adder trees fixed or rebuilt by RID-AT, output writings with COPs).
#include "cgra/schedule.hpp"

#include <string>
#include <vector>

namespace sparsemap::cgra::detail {

class ScheduleBuilder {
public:
    ScheduleBuilder(const SparseBlock& block, const CgraSpec& cgra, int ii);

    const SparseBlock& block() const { return m_block; }
    const CgraSpec& cgra() const { return m_cgra; }
    int ii() const { return m_ii; }
    Schedule& schedule() { return m_schedule; }

    int readOf(int channel) const { return m_readOf[std::size_t(channel)]; }
    const std::vector<int>& mulsOfChannel(int channel) const { return m_mulsOfChannel[std::size_t(channel)]; }
    const std::vector<int>& mulsOfKernel(int kernel) const { return m_mulsOfKernel[std::size_t(kernel)]; }
    int time(int node) const { return m_schedule.time[std::size_t(node)]; }

    int addNode(const SdfgNode& node);
    void addEdge(int from, int to) { m_schedule.graph.addEdge(from, to); }
    // Sets t(v) and books the modulo resource the node uses (a PE, an input or an output bus).
    void place(int node, int t);
    int freePes(int t) const { return m_cgra.peCount() - m_peUse[std::size_t(t % m_ii)]; }
    int freeInputBuses(int t) const { return m_cgra.inputBuses() - m_inUse[std::size_t(t % m_ii)]; }
    int freeOutputBuses(int t) const { return m_cgra.outputBuses() - m_outUse[std::size_t(t % m_ii)]; }
    // Multiplications of `kernel` already placed at time t.
    int kernelMatesAt(int kernel, int t) const;

    // Input reading r at t cannot feed all its multiplications directly: place as many as one bus
    // column and the free PEs allow at t, a COP beside them, and leave the rest to the COP (`pending`).
    void cacheReading(int read, const std::vector<int>& muls, int t, std::vector<int>& pending);
    // Feeds all `muls` at t from `read` and, with `extraBuses` > 0, from that many multicast copies.
    void feedDirect(int read, const std::vector<int>& muls, int t, int extraBuses);
    // SchedRemainMulti: each cached multiplication at the first time after its COP with a free PE.
    bool scheduleCachedMuls(std::vector<int> pending, std::string& failure);
    // Adder trees: fixed balanced trees as soon as possible, or rebuilt by RID-AT.
    bool scheduleFixedTrees(std::string& failure);
    bool rebuildTrees(std::string& failure);
    // SchedWriting: w at t(root) + 1 when an output bus is free then, else behind a COP.
    bool scheduleWrites(std::string& failure);
    // Places kernel k's writing one cycle after `root` when an output bus is free then.
    bool writeDirectly(int kernel, int root);

private:
    const SparseBlock& m_block;
    const CgraSpec& m_cgra;
    int m_ii;
    Schedule m_schedule;
    std::vector<int> m_peUse, m_inUse, m_outUse;
    std::vector<int> m_readOf;
    std::vector<std::vector<int>> m_mulsOfChannel, m_mulsOfKernel;
    std::vector<int> m_rootOf;  // per kernel: the node producing its sum (set by the tree step)
    std::vector<int> m_writeOf; // per kernel: its writing once placed
};

} // namespace sparsemap::cgra::detail
