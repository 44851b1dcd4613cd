#include "cgra/schedule.hpp"

#include <algorithm>
#include <sstream>

namespace sparsemap::cgra {

int Schedule::length() const
{
    int last = -1;
    for (int t : time)
        last = std::max(last, t);
    return last + 1;
}

int Schedule::multicastCount() const
{
    int n = 0;
    for (const auto& node : graph.nodes)
        n += node.kind == NodeKind::Read && node.multicastOf >= 0;
    return n;
}

std::vector<int> Schedule::mcidEdges() const
{
    std::vector<int> out;
    for (std::size_t e = 0; e < graph.edges.size(); ++e) {
        const auto& edge = graph.edges[e];
        if (edge.kind == EdgeKind::Internal && time[std::size_t(edge.to)] - time[std::size_t(edge.from)] > 1)
            out.push_back(int(e));
    }
    return out;
}

std::string scheduleText(const Schedule& s, const CgraSpec& cgra)
{
    std::ostringstream out;
    out << "II " << s.ii << ", schedule length " << s.length() << " cycles\n";
    for (int m = 0; m < s.ii; ++m) {
        std::vector<std::string> pe, in, outBus;
        for (std::size_t v = 0; v < s.graph.nodes.size(); ++v) {
            if (s.modulo(int(v)) != m)
                continue;
            const std::string item = s.graph.label(int(v)) + "@" + std::to_string(s.time[v]);
            const auto kind = s.graph.nodes[v].kind;
            if (kind == NodeKind::Read)
                in.push_back(item);
            else if (kind == NodeKind::Write)
                outBus.push_back(item);
            else
                pe.push_back(item);
        }
        const auto join = [](const std::vector<std::string>& items) {
            std::string text;
            for (const auto& i : items)
                text += (text.empty() ? "" : " ") + i;
            return text.empty() ? std::string("-") : text;
        };
        out << "  slot " << m << ": PEs " << pe.size() << "/" << cgra.peCount() << " [" << join(pe)
            << "]\n          input buses " << in.size() << "/" << cgra.inputBuses() << " [" << join(in)
            << "]  output buses " << outBus.size() << "/" << cgra.outputBuses() << " [" << join(outBus)
            << "]\n";
    }
    const auto mcids = s.mcidEdges();
    out << "  MCIDs " << mcids.size() << ":";
    for (int e : mcids) {
        const auto& edge = s.graph.edges[std::size_t(e)];
        out << " " << s.graph.label(edge.from) << "@" << s.time[std::size_t(edge.from)] << "->"
            << s.graph.label(edge.to) << "@" << s.time[std::size_t(edge.to)];
    }
    out << "\n";
    return out.str();
}

} // namespace sparsemap::cgra
