#pragma once
// The point log of a run: every evaluated design, stored as columns (the one home of a run's points;
// SearchResult::points is one). EvaluatedPoint stays the value type one evaluation produces; the log
// keeps no per-point allocation:
//   - the genomes in one contiguous array, genome after genome, each gene 1 byte (0..255), 2 bytes
//     (int16) or 4 bytes (int32): the narrowest width holding every gene so far, widened (once for the
//     whole array) when a wider gene arrives. Genomes of one length (every real run) need no index;
//     when lengths differ (a method logging some designs without a genome) an index of starts is kept;
//   - generation (i32), valid (u8), objective, cycles, energy_pj, edp (f64) columns;
//   - reasons interned: a table of distinct texts and a u32 per point (0 = no reason).
// About 190 bytes per point for a 63-gene genome at 2 bytes a gene, instead of ~450 as a vector of
// EvaluatedPoint (each with its own genome and reason allocations). docs/results/session-speed.md.
//
// Reading: log[i] gives a PointView, a light copy of the point's scalars with a view of its genome
// (GenomeView) and its reason (a string_view into the table); it allocates nothing and is valid until
// the log is next changed. Loops over many points read the columns (objectives(), validFlags(), ...).
// Writing: push_back(EvaluatedPoint), or append(genome, generation) then setResult / setReason (how
// SearchContext fills a batch: setResult may run on many threads, each on its own index).
// Copying: copies share the columns (implicitly shared, copy on write, like Qt's containers): a copy
// costs a pointer, so a run can be shown, pinned, compared or saved on a worker thread without
// copying its millions of points; the first change to a shared log copies its columns for it.
#include "genome/genome_layout.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sparsemap::search {

struct EvaluatedPoint;

// A read-only view of one genome in a PointLog: genes of `width` bytes (1 = u8, 2 = i16, 4 = i32).
class GenomeView {
public:
    GenomeView() = default;
    GenomeView(const std::byte* data, std::size_t size, int width)
        : m_data(data), m_size(size), m_width(width)
    {
    }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    int operator[](std::size_t g) const;
    Genome toGenome() const;
    operator Genome() const { return toGenome(); } // NOLINT: a view converts to the value it views

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = int;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = int;
        const_iterator() = default;
        const_iterator(const GenomeView* view, std::size_t g) : m_view(view), m_g(g) {}
        int operator*() const { return (*m_view)[m_g]; }
        const_iterator& operator++()
        {
            ++m_g;
            return *this;
        }
        const_iterator operator++(int)
        {
            auto before = *this;
            ++m_g;
            return before;
        }
        bool operator==(const const_iterator& o) const { return m_g == o.m_g; }

    private:
        const GenomeView* m_view = nullptr;
        std::size_t m_g = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, m_size}; }

    friend bool operator==(const GenomeView& a, const GenomeView& b);
    friend bool operator==(const GenomeView& a, const Genome& b);

private:
    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
    int m_width = 1;
};

// One point of a PointLog, by value (no allocation): the same fields as EvaluatedPoint.
struct PointView {
    GenomeView genome;
    bool valid = false;
    std::string_view reason;
    double cycles = 0;
    double energyPj = 0;
    double edp = 0;
    double objective = std::numeric_limits<double>::infinity();
    int generation = 0;
    EvaluatedPoint toPoint() const;
};

class PointLog {
public:
    static constexpr std::uint32_t kVaryingLength = std::numeric_limits<std::uint32_t>::max();

    PointLog() = default;
    PointLog(std::initializer_list<EvaluatedPoint> points);

    std::size_t size() const { return data().m_generation.size(); }
    bool empty() const { return data().m_generation.empty(); }
    void clear();
    // Room for `points` points of `genomeLength` genes at the current gene width.
    void reserve(std::size_t points, std::size_t genomeLength);

    void push_back(const EvaluatedPoint& p);
    // A new point with `genome` and `generation`, not yet evaluated (invalid, objective +inf).
    void append(std::span<const int> genome, int generation);
    // Appends points [first, last) of `other` (the whole log by default).
    void append(const PointLog& other, std::size_t first = 0, std::size_t last = std::size_t(-1));
    // Sets the evaluation of point i. Thread-safe for distinct i (no reallocation happens).
    void setResult(std::size_t i, bool valid, double cycles, double energyPj, double edp, double objective);
    void setReason(std::size_t i, std::string_view reason); // not thread-safe (interns the text)

    PointView operator[](std::size_t i) const;
    PointView at(std::size_t i) const; // throws std::out_of_range

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = PointView;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = PointView;
        const_iterator() = default;
        const_iterator(const PointLog* log, std::size_t i) : m_log(log), m_i(i) {}
        PointView operator*() const { return (*m_log)[m_i]; }
        const_iterator& operator++()
        {
            ++m_i;
            return *this;
        }
        const_iterator operator++(int)
        {
            auto before = *this;
            ++m_i;
            return before;
        }
        bool operator==(const const_iterator& o) const { return m_i == o.m_i; }

    private:
        const PointLog* m_log = nullptr;
        std::size_t m_i = 0;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size()}; }

    // The columns.
    std::span<const std::int32_t> generations() const { return data().m_generation; }
    std::span<const std::uint8_t> validFlags() const { return data().m_valid; }
    std::span<const double> objectives() const { return data().m_objective; }
    std::span<const double> cycles() const { return data().m_cycles; }
    std::span<const double> energiesPj() const { return data().m_energyPj; }
    std::span<const double> edps() const { return data().m_edp; }
    std::span<const std::uint32_t> reasonIndices() const
    {
        return data().m_reason;
    } // 0 = none, r = reasonTable()[r-1]
    const std::vector<std::string>& reasonTable() const { return data().m_reasonTable; }
    // Genomes: their common length, or kVaryingLength; gene width in bytes; genome i's view.
    std::uint32_t genomeLength() const { return data().m_genomeLength; }
    int geneWidth() const { return data().m_geneWidth; }
    GenomeView genome(std::size_t i) const;
    // Gene g of every point, with a uniform genome length (kVaryingLength is not).
    int gene(std::size_t i, std::size_t g) const;
    // The genes' storage, genome after genome, geneWidth() bytes each (starts(): where each begins
    // when lengths vary).
    std::span<const std::byte> geneBytes() const { return data().m_genes; }
    std::span<const std::uint64_t> starts() const { return data().m_starts; }

    // The least and greatest value of each gene over all points (genomeLength() entries each; with
    // kVaryingLength, empty). One pass over the genome array.
    void geneBounds(std::vector<int>& low, std::vector<int>& high) const;

    std::int64_t validCount() const;
    // The valid points whose objective equals, to the bit, that of an earlier valid point: evaluations of
    // a design that scores exactly as one already seen - most of them another genome of a design already
    // evaluated in all but where it does not matter for this design (a loop order, an S/G value), or
    // a mirror image on a symmetric workload (issue 13: 7.6-31.3 % of `sparsemap`'s evaluations on the
    // 84 Table IV cells, seed 1).
    std::int64_t repeatedObjectiveCount() const;
    // Whether this log and `other` share their columns (one is an unchanged copy of the other).
    bool sharesColumnsWith(const PointLog& other) const { return m_d && m_d == other.m_d; }
    // Bytes the log holds on the heap (capacity, not size): what a run costs in memory.
    std::size_t memoryBytes() const;

    // Builds a log from whole columns (the session codec's decoder): every column `count` long,
    // genes row-major (`genes.size() == count * genomeLength * geneWidth`, or with `starts` of count + 1
    // entries when lengths vary), reasons indices at most the table's size. Throws std::invalid_argument.
    struct Columns {
        std::vector<std::int32_t> generation;
        std::vector<std::uint8_t> valid;
        std::vector<double> objective, cycles, energyPj, edp;
        std::uint32_t genomeLength = 0;    // or kVaryingLength
        std::vector<std::uint64_t> starts; // with kVaryingLength: count + 1 gene offsets
        int geneWidth = 1;                 // bytes per gene in `genes` (writeGene)
        std::vector<std::byte> genes;
        std::vector<std::string> reasonTable;
        std::vector<std::uint32_t> reason;
    };
    static PointLog fromColumns(Columns columns);

    // The narrowest gene width (1, 2 or 4 bytes) holding every value of [low, high].
    static int widthFor(std::int64_t low, std::int64_t high)
    {
        return low >= 0 && high <= 0xff ? 1 : low >= -0x8000 && high <= 0x7fff ? 2 : 4;
    }
    static int readGene(const std::byte* at, int width);
    static void writeGene(std::byte* at, int width, int value);

private:
    void widen(int width);
    std::size_t genomeStart(std::size_t i) const;        // in genes
    std::byte* growGenes(std::size_t length, int width); // room for one more genome; where it goes
    void pushScalars(int generation);
    std::uint32_t intern(std::string_view reason);

    // The columns, shared between copies of the log and never changed while shared: copying a log
    // (a run shown, pinned, compared, saved on a worker thread) copies a pointer, and a change to a
    // shared log first copies the columns (copy on write, as Qt's containers do). A moved-from or
    // default log has none (empty()).
    struct Data {
        std::vector<std::int32_t> m_generation;
        std::vector<std::uint8_t> m_valid;
        std::vector<double> m_objective, m_cycles, m_energyPj, m_edp;
        std::vector<std::uint32_t> m_reason;
        std::vector<std::string> m_reasonTable;
        struct TextHash {
            using is_transparent = void;
            std::size_t operator()(std::string_view text) const
            {
                return std::hash<std::string_view>{}(text);
            }
        };
        std::unordered_map<std::string, std::uint32_t, TextHash, std::equal_to<>> m_reasonIndex;
        std::uint32_t m_genomeLength = 0;    // of every genome so far (0 while the log is empty)
        std::vector<std::uint64_t> m_starts; // only with kVaryingLength: size() + 1 gene offsets
        std::vector<std::byte> m_genes;
        int m_geneWidth = 1;
    };
    const Data& data() const { return m_d ? *m_d : emptyData(); }
    Data& mut(); // the columns, unshared first (and made when there are none)
    static const Data& emptyData();
    std::shared_ptr<Data> m_d;
};

} // namespace sparsemap::search
