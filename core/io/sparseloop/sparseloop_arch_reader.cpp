// The v0.3 architecture tree -> Architecture (model-notes-dataflow §1.1). The tree is walked from the
// root down; `subtree` names with ranges (`PE[0..255]`) multiply the instances of everything below
// them, a `local` name with a range multiplies that component only. Storage components become levels,
// outer to inner in the order they are met; the compute component must come last.
#include "io/sparseloop/sparseloop_readers.hpp"

#include <charconv>
#include <map>

namespace sparsemap::detail {

namespace {

bool isNumberText(const std::string& s)
{
    double value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

// The attributes that apply to one component, most specific last: the compound class's numeric
// defaults (Accelergy fills them in; `must_specify` and expressions are not values), then the
// attributes of every enclosing subtree, then the component's own.
class Attributes {
public:
    void add(const std::optional<YamlReader>& map, bool numericOnly = false)
    {
        if (!map || !map->isMap())
            return;
        for (const auto& [name, value] : map->entries())
            if (!numericOnly || (value.isScalar() && isNumberText(value.node().Scalar())))
                m_items.emplace_back(name, value);
    }
    void append(const Attributes& other)
    {
        for (const auto& item : other.m_items) // YamlReader cannot be assigned, so no insert()
            m_items.push_back(item);
    }
    std::optional<YamlReader> find(std::initializer_list<std::string_view> names) const
    {
        for (auto it = m_items.rbegin(); it != m_items.rend(); ++it)
            for (auto n : names)
                if (it->first == n)
                    return it->second;
        return std::nullopt;
    }
    // An integer attribute in [minimum, maximum]; nullopt when absent or wrong (wrong is reported).
    // The maximum keeps products such as depth x block x word bits within 64 bits.
    std::optional<std::int64_t> integer(std::initializer_list<std::string_view> names, std::int64_t minimum,
                                        std::int64_t maximum = std::int64_t{1} << 20) const
    {
        const auto node = find(names);
        const auto value =
            node ? node->integerAtLeast(minimum, minimum > 0 ? "a positive integer" : "an integer >= 0")
                 : std::nullopt;
        if (value && *value > maximum) {
            node->error("is too large; at most " + std::to_string(maximum));
            return std::nullopt;
        }
        return value;
    }
    std::optional<double> number(std::initializer_list<std::string_view> names) const
    {
        const auto node = find(names);
        const auto value = node ? node->number() : std::nullopt;
        if (value && *value < 0) {
            node->error("must be >= 0");
            return std::nullopt;
        }
        return value;
    }

private:
    std::vector<std::pair<std::string, YamlReader>> m_items;
};

enum class ComponentKind { Storage, Compute, Network, Unknown };

bool contains(std::string_view text, std::initializer_list<std::string_view> parts)
{
    for (auto p : parts)
        if (text.find(p) != std::string_view::npos)
            return true;
    return false;
}

class TreeWalker {
public:
    TreeWalker(const std::optional<YamlReader>& compounds, SparseloopCase& out) : m_out(out)
    {
        const auto classes = compounds ? compounds->get("classes") : std::nullopt;
        if (classes)
            for (const auto& c : classes->items())
                if (const auto name = c.get("name"); name && name->isScalar())
                    m_compounds.emplace(name->node().Scalar(), c);
    }

    void walk(const YamlReader& node, std::int64_t multiplier, Attributes inherited)
    {
        inherited.add(node.get("attributes"));
        if (const auto local = node.get("local"))
            if (local->expectSequence("the components of this node"))
                for (const auto& component : local->items())
                    readComponent(component, multiplier, inherited);
        if (const auto subtree = node.get("subtree"))
            if (subtree->expectSequence("the nested nodes of this node"))
                for (const auto& child : subtree->items()) {
                    if (!child.expectMap("a tree node {name, attributes, local, subtree}"))
                        continue;
                    const auto count = instancesOf(child, multiplier);
                    if (count)
                        walk(child, *count, inherited);
                }
    }

    bool computeSeen() const { return m_computeSeen; }

private:
    // Instances of `node` (a subtree node or a component): the multiplier times its name's ranges.
    std::optional<std::int64_t> instancesOf(const YamlReader& node, std::int64_t multiplier)
    {
        const auto nameNode = node.require("name", "the node's name, with [a..b] for copies");
        const auto name = nameNode ? nameNode->text() : std::nullopt;
        if (!name)
            return std::nullopt;
        const auto count = rangeCount(*name);
        if (!count)
            nameNode->error("malformed instance range in `" + *name + "`; write e.g. PE[0..255]");
        else if (*count > (std::int64_t{1} << 40) / multiplier)
            nameNode->error("`" + *name + "` gives more than 2^40 instances");
        else
            return *count * multiplier;
        return std::nullopt;
    }

    ComponentKind classify(const std::string& cls) const
    {
        // Timeloop's class names for buffers and arithmetic units, matched as parts of the class
        // name so that e.g. `SRAM_MD` and `intmac` are recognised.
        if (contains(cls, {"DRAM", "SRAM", "regfile", "smartbuffer", "storage"}))
            return ComponentKind::Storage;
        if (contains(cls, {"mac", "compute"}))
            return ComponentKind::Compute;
        if (contains(cls, {"XY_NoC", "Legacy", "ReductionTree", "SimpleMulticast"}))
            return ComponentKind::Network;
        const auto it = m_compounds.find(cls);
        if (it == m_compounds.end())
            return ComponentKind::Unknown;
        // A compound class used directly: its actions say what it is.
        const auto actions = it->second.get("actions");
        bool read = false, mac = false;
        for (const auto& a : actions ? actions->items() : std::vector<YamlReader>{})
            if (const auto n = a.get("name"); n && n->isScalar()) {
                read = read || n->node().Scalar() == "read";
                mac = mac || n->node().Scalar().rfind("mac", 0) == 0;
            }
        return mac ? ComponentKind::Compute : read ? ComponentKind::Storage : ComponentKind::Unknown;
    }

    void readComponent(const YamlReader& c, std::int64_t multiplier, const Attributes& inherited)
    {
        if (!c.expectMap("a component {name, class, attributes}"))
            return;
        const auto instances = instancesOf(c, multiplier);
        const auto classNode = c.require("class", "the component class, e.g. DRAM, storage or compute");
        const auto cls = classNode ? classNode->text() : std::nullopt;
        if (!instances || !cls)
            return;
        Attributes attrs;
        const auto subclass = c.get("subclass");
        const std::string compound = subclass && subclass->isScalar() ? subclass->node().Scalar() : *cls;
        if (const auto it = m_compounds.find(compound); it != m_compounds.end())
            attrs.add(it->second.get("attributes"), true);
        attrs.append(inherited);
        attrs.add(c.get("attributes"));
        const std::string name = stripRanges(c.get("name")->node().Scalar());
        switch (classify(*cls)) {
        case ComponentKind::Storage:
            if (m_computeSeen)
                c.error("storage `" + name +
                        "` comes after the compute; levels are listed outer to inner, "
                        "the compute last");
            readStorage(attrs, *cls, name, *instances, c);
            break;
        case ComponentKind::Compute:
            if (m_computeSeen)
                c.error("a second compute component `" + name + "`; an architecture has one");
            m_computeSeen = true;
            readCompute(attrs, name, *instances);
            break;
        case ComponentKind::Network:
            addNote(m_out,
                    "network component `" + name + "` ignored (networks cost no energy in this model)");
            break;
        case ComponentKind::Unknown:
            classNode->error("unknown component class `" + *cls +
                             "`; allowed: DRAM, SRAM, regfile, smartbuffer, storage (storage levels), "
                             "compute, mac, intmac, fpmac (compute), or a compound class of "
                             "compound_components");
            break;
        }
    }

    // meshX from meshX / meshY (0 when neither is given: SparseMap's default grid).
    std::int64_t readMesh(const Attributes& a, std::int64_t instances, const std::string& name)
    {
        const auto x = a.integer({"meshX"}, 1), y = a.integer({"meshY"}, 1);
        if (x && y && *x * *y != instances)
            a.find({"meshX"})->error("meshX x meshY = " + std::to_string(*x * *y) + " but `" + name +
                                     "` has " + std::to_string(instances) + " instances");
        else if (x && instances % *x != 0)
            a.find({"meshX"})->error("meshX " + std::to_string(*x) + " does not divide the " +
                                     std::to_string(instances) + " instances of `" + name + "`");
        else if (!x && y && instances % *y != 0)
            a.find({"meshY"})->error("meshY " + std::to_string(*y) + " does not divide the " +
                                     std::to_string(instances) + " instances of `" + name + "`");
        if (x)
            return *x;
        if (y)
            return instances / *y;
        if (instances > 1)
            addNote(m_out, name + ": no meshX/meshY; meshX left 0 (SparseMap's default grid; Timeloop "
                                  "would use meshX = instances)");
        return 0;
    }

    int readWordBits(const Attributes& a, const std::string& name)
    {
        if (const auto bits = a.integer({"datawidth", "word-bits", "word_bits"}, 1)) {
            if (*bits <= 4096)
                return static_cast<int>(*bits);
            a.find({"datawidth", "word-bits", "word_bits"})
                ->error("word width is too large; at most 4096 bits");
        }
        addNote(m_out, name + ": no datawidth; 16 bits assumed (Timeloop's default)");
        return 16;
    }

    void readStorage(const Attributes& a, const std::string& cls, const std::string& name,
                     std::int64_t instances, const YamlReader& where);
    void readCompute(const Attributes& a, const std::string& name, std::int64_t instances)
    {
        ComputeUnit& compute = m_out.architecture.compute;
        compute.name = name;
        compute.instances = instances;
        compute.wordBits = readWordBits(a, name);
        compute.meshX = readMesh(a, instances, name);
    }

    SparseloopCase& m_out;
    std::map<std::string, YamlReader> m_compounds;
    bool m_computeSeen = false;
};

void TreeWalker::readStorage(const Attributes& a, const std::string& cls, const std::string& name,
                             std::int64_t instances, const YamlReader& where)
{
    StorageLevel level;
    SparseloopLevelExtras extras;
    level.name = name;
    level.instances = instances;
    level.technology = contains(cls, {"DRAM"}) ? "DRAM" : contains(cls, {"regfile"}) ? "regfile" : "SRAM";
    level.wordBits = readWordBits(a, name);
    if (const auto cluster = a.integer({"cluster-size", "cluster_size"}, 1))
        extras.clusterSize = static_cast<int>(*cluster);
    // Block size (words per vector access): given, or the storage width over cluster and word width.
    const auto width = a.integer({"width", "memory_width", "data_storage_width"}, 1);
    if (const auto block = a.integer({"block_size", "block-size", "n_words"}, 1)) {
        level.blockSize = static_cast<int>(*block);
    } else if (width) {
        const std::int64_t bitsPerBlockWord = std::int64_t{level.wordBits} * extras.clusterSize;
        if (*width % bitsPerBlockWord != 0)
            a.find({"width", "memory_width", "data_storage_width"})
                ->error("width " + std::to_string(*width) +
                        " bits is not a multiple of datawidth x cluster-size (" +
                        std::to_string(bitsPerBlockWord) + "); give block_size");
        level.blockSize = static_cast<int>(std::max<std::int64_t>(1, *width / bitsPerBlockWord));
    }
    // Size in words = depth x block (or `entries`); a DRAM, or the outermost level, may be unbounded.
    constexpr std::int64_t kMaxDepth = std::int64_t{1} << 30;
    // Depth (entries) 0 is a level that holds nothing: Timeloop's size 0 admits only tensors that
    // bypass it (e.g. Eyeriss' DummyBuffer). Its capacity is 1 bit: less than one word, not unbounded.
    constexpr std::int64_t kHoldsNothingBits = 1;
    if (const auto entries = a.integer({"entries"}, 0, kMaxDepth))
        level.capacityBits = *entries > 0 ? *entries * level.wordBits : kHoldsNothingBits;
    else if (const auto depth = a.integer({"depth", "memory_depth", "data_storage_depth"}, 0, kMaxDepth))
        level.capacityBits = *depth > 0 ? *depth * level.blockSize * level.wordBits : kHoldsNothingBits;
    else if (level.technology != "DRAM" && !m_out.architecture.levels.empty())
        where.error("storage `" + name +
                    "` has no data_storage_depth (or depth, entries); only the "
                    "outermost level or a DRAM may be unbounded");

    const auto mdWidth = a.integer({"metadata_storage_width"}, 0);
    const auto mdDepth = a.integer({"metadata_storage_depth"}, 0, kMaxDepth);
    extras.metadataStorageWidthBits = mdWidth ? static_cast<int>(*mdWidth) : 0;
    level.metadataWordBits =
        extras.metadataStorageWidthBits > 0 ? extras.metadataStorageWidthBits : level.wordBits;
    if (extras.metadataStorageWidthBits == 0)
        addNote(m_out, name + ": no metadata_storage_width; metadataWordBits = datawidth (" +
                           std::to_string(level.wordBits) + "), Timeloop would charge no metadata access");
    level.metadataCapacityBits = mdWidth && mdDepth ? *mdWidth * *mdDepth : 0;
    if (const auto md = a.integer({"metadata_datawidth", "metadata_word_bits"}, 0))
        extras.defaultMetadataWordBits = static_cast<int>(*md);

    const auto read = a.number({"read_bandwidth"}), write = a.number({"write_bandwidth"});
    const auto shared = a.number({"bandwidth"});
    level.readBandwidth = read ? *read : shared ? *shared / 2 : 0;
    level.writeBandwidth = write ? *write : shared ? *shared / 2 : 0;
    if (shared && (!read || !write))
        addNote(m_out, name + ": `bandwidth` split half for reads, half for writes (Timeloop's rule)");
    if (const auto buffering = a.number({"multiple-buffering", "multiple_buffering"});
        buffering && *buffering > 0)
        extras.multipleBuffering = *buffering;
    level.meshX = readMesh(a, instances, name);
    m_out.architecture.levels.push_back(std::move(level));
    m_out.levels.push_back(std::move(extras));
}

} // namespace

void readSparseloopArchitecture(const YamlReader& architecture, const std::optional<YamlReader>& compounds,
                                SparseloopCase& out)
{
    if (!architecture.expectMap("the v0.3 architecture tree {version: 0.3, subtree: [...]}"))
        return;
    if (const auto version = architecture.require("version", "0.3, the tree format read here"))
        if (const auto text = version->text(); text && *text != "0.3")
            version->error("architecture version `" + *text +
                           "` is not supported; this reader takes the v0.3 tree (subtree/local)");
    const std::size_t errorsBefore = architecture.sink().count();
    TreeWalker walker(compounds, out);
    walker.walk(architecture, 1, Attributes{});
    if (architecture.sink().count() != errorsBefore) // a component that did not read may be the missing one
        return;
    if (out.architecture.levels.empty())
        architecture.error("no storage component found (classes DRAM, SRAM, regfile, storage, ...)");
    if (!walker.computeSeen())
        architecture.error("no compute component found (class compute, mac, intmac or fpmac)");
    out.architecture.clockGHz = 1.0; // Sparseloop reports cycles; GFLOPs are printed @1GHz
    out.architecture.name = "sparseloop";
    if (const auto subtree = architecture.get("subtree"); subtree && subtree->size() > 0)
        if (const auto name = subtree->items().front().get("name"); name && name->isScalar())
            out.architecture.name = stripRanges(name->node().Scalar());
}

} // namespace sparsemap::detail
