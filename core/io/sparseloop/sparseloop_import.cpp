// importSparseloopCase: reads the files in dependency order (problem and architecture first, since
// the ERT, the mapping and the sparse optimizations refer to their names) and reports every problem
// of every file together.
#include "io/sparseloop/sparseloop_import.hpp"

#include "util/file_io.hpp"
#include "io/sparseloop/sparseloop_readers.hpp"
#include "workload/workload_factory.hpp"

#include <filesystem>

namespace sparsemap {

namespace {

using detail::DiagnosticSink;
using detail::YamlReader;

// One input file: its sink and, when it parsed, its root.
struct InputFile {
    explicit InputFile(const std::string& path) : sink(path)
    {
        if (const auto node = detail::loadYaml(readTextFile(path), sink))
            root.emplace(*node, std::string{}, sink);
    }
    InputFile(const InputFile&) = delete; // the reader points at the sink
    InputFile& operator=(const InputFile&) = delete;
    DiagnosticSink sink;
    std::optional<YamlReader> root;
};

void throwIfAny(std::initializer_list<const DiagnosticSink*> sinks)
{
    std::vector<Diagnostic> all;
    for (const auto* sink : sinks) {
        if (!sink)
            continue;
        try {
            sink->throwIfAny();
        } catch (const InputError& e) {
            all.insert(all.end(), e.diagnostics().begin(), e.diagnostics().end());
        }
    }
    if (!all.empty())
        throw InputError(all);
}

// Cross-field checks of the core types, reported at the section they concern.
void checkSemantics(const SparseloopCase& c, const YamlReader& problem, const YamlReader& architecture)
{
    for (const auto& message : workloadProblems(c.workload))
        problem.error(message);
    for (const auto& message : architectureProblems(c.architecture))
        architecture.error(message);
}

} // namespace

SparseloopCase importSparseloopCase(const std::string& aggregatedInputPath, const std::string& mapPath,
                                    const std::string& ertPath)
{
    SparseloopCase c;
    InputFile input(aggregatedInputPath);
    input.sink.throwIfAny();
    const YamlReader& root = *input.root;
    if (!root.expectMap("a Sparseloop input {architecture, problem, sparse_optimizations, ...}"))
        input.sink.throwIfAny();
    const auto problem = root.require("problem", "the problem {shape, instance}");
    const auto architecture = root.require("architecture", "the v0.3 architecture tree");
    if (problem)
        detail::readSparseloopProblem(*problem, c);
    if (architecture)
        detail::readSparseloopArchitecture(*architecture, root.get("compound_components"), c);
    input.sink.throwIfAny(); // the other sections name the tensors, dims and levels read here
    checkSemantics(c, *problem, *architecture);
    input.sink.throwIfAny();
    for (const auto& [key, value] : root.entries())
        if (key != "architecture" && key != "problem" && key != "sparse_optimizations" && key != "mapping" &&
            key != "compound_components")
            detail::addNote(c, "aggregated input `" + key + "` ignored");

    InputFile ert(ertPath);
    if (ert.root)
        detail::readSparseloopErt(*ert.root, c);

    std::optional<InputFile> map;
    if (!mapPath.empty()) {
        map.emplace(mapPath);
        if (root.has("mapping"))
            root.keyNode("mapping")->error("the mapping is given here and in " + mapPath + "; give it once");
        if (map->root && map->root->expectMap("{mapping: [...]}")) {
            map->root->checkKeys({"mapping"});
            if (const auto mapping = map->root->require("mapping", "the mapping directives, a list"))
                detail::readSparseloopMapping(*mapping, *map->root->keyNode("mapping"), c);
        }
    } else if (const auto mapping = root.require(
                   "mapping", "the mapping directives (there is no map.yaml beside this file)")) {
        detail::readSparseloopMapping(*mapping, *root.keyNode("mapping"), c);
    }
    detail::readSparseloopSparse(root.get("sparse_optimizations"), c);
    throwIfAny({&input.sink, map ? &map->sink : nullptr, &ert.sink});
    detail::addNote(c,
                    "compound_components are read only for the numeric attribute defaults of their classes");
    return c;
}

SparseloopCase importSparseloopCase(const std::string& dir)
{
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(dir).lexically_normal();
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
        throw InputError("cannot read the Sparseloop case " + dir + ": it is not a folder");
    const fs::path map = folder / "map.yaml";
    SparseloopCase c = importSparseloopCase((folder / "aggregated_input.yaml").string(),
                                            fs::exists(map, ec) ? map.string() : std::string{},
                                            (folder / "ERT.yaml").string());
    c.name = (folder.has_filename() ? folder : folder.parent_path()).filename().string();
    return c;
}

} // namespace sparsemap
