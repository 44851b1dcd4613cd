#pragma once
// Binding a schedule onto the time-extended CGRA (paper Section 4.2): a conflict graph whose vertices
// are candidate bindings — (reading, input bus), (writing, output bus), (PE node, PE) at the node's
// modulo slot — and whose edges are conflicts:
//  - R1 and PE exclusivity: one node on two resources; two nodes on one bus or PE in one modulo slot;
//  - R2: a reading on input bus p and a consumer of it on a PE outside column p; a writing on output
//    bus q and its producer on a PE outside row q.
// A maximum independent set with one vertex per node is a binding. Internal dependencies of one cycle
// are assumed routable over the PE interconnect (BusMap's bus routing is not modelled); MCIDs are then
// routed through registers: the consumer's LRF when both ends share a PE, the GRF otherwise, each
// needing ceil((distance - 1) / II) registers (the copies of overlapping iterations). Weights occupy
// one LRF register per multiplication bound to a PE.
#include "cgra/mis_solver.hpp"
#include "cgra/schedule.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sparsemap::cgra {

struct ConflictVertex {
    int node = 0;
    int resource = 0; // input bus, output bus, or PE index row * cols + col, depending on the node kind
};

struct ConflictGraph {
    std::vector<ConflictVertex> vertices;
    MisGraph graph; // groups[i] = candidates of node i
};

ConflictGraph buildConflictGraph(const Schedule& schedule, const CgraSpec& cgra);

struct BinderOptions {
    int exactVertexLimit = 3000;          // larger conflict graphs go straight to the heuristic
    std::int64_t exactNodeLimit = 200000; // search nodes before the exact solver gives up
};

struct BindingResult {
    bool success = false;
    std::string failure;  // empty on success
    std::string solver;   // "exact" or "greedy"
    bool optimal = false; // the MIS size is proven maximum
    int conflictVertices = 0;
    int conflictEdges = 0;
    int boundNodes = 0;        // |MIS|
    int totalNodes = 0;        // |V_D'|
    std::vector<int> resource; // per node: bus or PE index, -1 when unbound
    int grfRegisters = 0;      // registers the MCIDs need in the GRF
    int maxLrfRegisters = 0;   // the fullest PE's LRF (weights + MCIDs kept on the PE)
};

BindingResult bindSchedule(const Schedule& schedule, const CgraSpec& cgra, const BinderOptions& options = {});

} // namespace sparsemap::cgra
