// SearchContext, the state every optimizer shares: the budget is exact, batches are evaluated the
// same way whatever the thread count, points stream to observers, cancellation stops evaluation.
#include "genome/genome_codec.hpp"
#include "model/genome_evaluator.hpp"
#include "model/result_text.hpp"
#include "search/optimizer.hpp"
#include "sample_inputs.hpp"
#include "test_support.hpp"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace sparsemap;
using namespace sparsemap::search;

namespace {

// Random genomes in batches of 37, one generation per batch: enough to exercise partial batches.
class BatchOfRandomGenomes : public Optimizer {
public:
    std::string name() const override { return "test-random"; }
    void run(SearchContext& context) override
    {
        std::vector<double> objectives;
        while (!context.done()) {
            std::vector<Genome> batch;
            for (int i = 0; i < 37; ++i)
                batch.push_back(randomGenome(context.layout(), context.rng()));
            context.evaluate(batch, objectives);
            context.endGeneration(objectives);
        }
    }
};

GenomeLayout toyLayout()
{
    return GenomeLayout(test::toyWorkload(), test::toyArchitecture());
}

} // namespace

class TestSearchContext : public QObject {
    Q_OBJECT
private slots:
    void bestLeavesTheSearchWithItsDesignAndResult()
    {
        // What the run hands out for its best point is what a fresh evaluator gives that genome: the
        // evaluated design, the genome's own design, the whole result. Under --format-space nearest the
        // evaluated design's formats are made representable, the decoded ones are the genome's.
        const auto layout = toyLayout();
        for (const auto space : {model::FormatSpace::SparseloopDead, model::FormatSpace::SparseloopNearest}) {
            model::ModelOptions options;
            options.formatSpace = space;
            std::string summary;
            for (int threads : {1, 3}) {
                BatchOfRandomGenomes optimizer;
                SearchSettings settings;
                settings.budget = 200;
                settings.threads = threads;
                const auto result = runSearch(optimizer, layout, settings, options);
                QVERIFY(result.best());
                QVERIFY(result.bestDesign);
                const Genome& genome = result.best()->genome;
                model::GenomeEvaluator fresh(layout, options);
                const auto& r = fresh.evaluate(genome);
                QVERIFY(result.bestDesign->evaluated == fresh.lastDesign());
                QVERIFY(result.bestDesign->decoded == decodeGenome(layout, genome));
                QVERIFY(result.bestDesign->evaluation.valid);
                QCOMPARE(result.bestDesign->evaluation.cycles, r.cycles);
                QCOMPARE(result.bestDesign->evaluation.energyPj, r.energyPj);
                QCOMPARE(result.bestDesign->evaluation.edp, result.best()->edp);
                const std::string text = model::renderSummary(result.bestDesign->evaluation);
                QCOMPARE(text, model::renderSummary(r));
                if (summary.empty())
                    summary = text;
                QCOMPARE(text, summary); // whatever the thread count
            }
        }
    }

    void budgetIsExactAndPointsStream()
    {
        const auto layout = toyLayout();
        BatchOfRandomGenomes optimizer;
        SearchSettings settings;
        settings.budget = 100; // 37 + 37 + 26
        search::PointLog streamed;
        int generations = 0;
        const auto result = runSearch(
            optimizer, layout, settings, {}, nullptr, [&](const GenerationStats&) { ++generations; },
            [&](const search::PointLog& log, std::size_t first) { streamed.append(log, first); });
        QCOMPARE(result.points.size(), std::size_t(100));
        QCOMPARE(generations, 3);
        QCOMPARE(result.convergence.size(), std::size_t(3));
        QCOMPARE(result.convergence.back().evaluations, std::int64_t(100));
        QCOMPARE(streamed.size(), result.points.size());
        for (std::size_t i = 0; i < streamed.size(); ++i)
            QCOMPARE(streamed[i].genome, result.points[i].genome);
        // The best is the minimum objective, and the convergence's best never gets worse.
        if (const auto best = result.best())
            for (const auto& p : result.points)
                QVERIFY(best->objective <= p.objective);
        for (std::size_t g = 1; g < result.convergence.size(); ++g)
            QVERIFY(result.convergence[g].best <= result.convergence[g - 1].best);
    }

    void threadCountDoesNotChangeTheLog()
    {
        const auto layout = toyLayout();
        BatchOfRandomGenomes optimizer;
        SearchSettings settings;
        settings.budget = 500;
        settings.threads = 1;
        const auto one = runSearch(optimizer, layout, settings);
        settings.threads = 2;
        const auto two = runSearch(optimizer, layout, settings);
        QCOMPARE(one.points.size(), two.points.size());
        for (std::size_t i = 0; i < one.points.size(); ++i) {
            QCOMPARE(one.points[i].genome, two.points[i].genome);
            QCOMPARE(one.points[i].valid, two.points[i].valid);
            QCOMPARE(one.points[i].objective, two.points[i].objective);
        }
        QCOMPARE(one.bestIndex, two.bestIndex);
    }

    void cancelStopsAndKeepsWhatWasFound()
    {
        const auto layout = toyLayout();
        BatchOfRandomGenomes optimizer;
        SearchSettings settings;
        settings.budget = 10000;
        CancelToken cancel;
        const auto result =
            runSearch(optimizer, layout, settings, {}, &cancel, [&](const GenerationStats& g) {
                if (g.generation == 2)
                    cancel.cancel();
            });
        QVERIFY(result.cancelled);
        QCOMPARE(result.points.size(), std::size_t(3 * 37));
    }

    void heartbeatReportsWithoutAGeneration()
    {
        // Two batches of 10 with a generation each, heartbeats before, between and after: progress
        // is called 2 + 3 times, the log keeps 2 generations, and a heartbeat reports the
        // evaluations used so far under the last generation closed.
        const auto layout = toyLayout();
        SearchSettings settings;
        settings.budget = 100;
        std::vector<GenerationStats> reports;
        SearchContext context(layout, settings, {}, nullptr,
                              [&](const GenerationStats& g) { reports.push_back(g); });
        std::vector<double> objectives;
        context.heartbeat();
        for (int b = 0; b < 2; ++b) {
            std::vector<Genome> batch;
            for (int i = 0; i < 10; ++i)
                batch.push_back(randomGenome(layout, context.rng()));
            context.evaluate(batch, objectives);
            context.endGeneration(objectives);
            context.heartbeat();
        }
        QCOMPARE(reports.size(), std::size_t(5));
        QCOMPARE(reports[0].evaluations, std::int64_t(0));
        QCOMPARE(reports[2].generation, 0);
        QCOMPARE(reports[2].evaluations, std::int64_t(10));
        QCOMPARE(reports[4].generation, 1);
        QCOMPARE(reports[4].evaluations, std::int64_t(20));
        QCOMPARE(context.generation(), 2);
        QCOMPARE(context.result().convergence.size(), std::size_t(2));
    }

    void zeroBudgetEvaluatesNothing()
    {
        const auto layout = toyLayout();
        SearchSettings settings;
        settings.budget = 0;
        SearchContext context(layout, settings);
        std::vector<double> objectives;
        const std::vector<Genome> batch{randomGenome(layout, context.rng())};
        QCOMPARE(context.evaluate(batch, objectives), std::size_t(0));
        QVERIFY(context.done());
        QVERIFY(context.takeResult().points.empty());
    }

    // evaluateFitting: the genomes that fail the capacity pre-check (as a fresh evaluator checks them)
    // get +inf and stay out of the log, up to the cap; a failing genome past the cap is evaluated
    // (invalid); the others get what a fresh evaluator gives them. With the budget short, the call
    // stops at the first genome it could not evaluate.
    void evaluateFittingRulesOutUpToItsCap()
    {
        const auto layout = test::sampleLayout("mm10", "edge"); // large tiles, small buffers
        model::GenomeEvaluator fresh(layout);
        std::mt19937_64 rng(5);
        std::vector<Genome> batch;
        std::vector<int> failing, fitting;
        while (failing.size() < 3 || fitting.size() < 3) {
            Genome g = randomGenome(layout, rng);
            const bool fits = fresh.dataFitsCapacity(g);
            if ((fits ? fitting : failing).size() >= 3)
                continue;
            (fits ? fitting : failing).push_back(static_cast<int>(batch.size()));
            batch.push_back(std::move(g));
        }
        SearchSettings settings;
        settings.budget = 100;
        SearchContext context(layout, settings);
        std::vector<double> objectives;
        SearchContext::FreeCounts counts;
        QCOMPARE(context.evaluateFitting(batch, objectives, {2, false, false}, counts), batch.size());
        QCOMPARE(counts.malformed, std::int64_t(0));
        QCOMPARE(counts.overflowing, std::int64_t(0));
        QCOMPARE(counts.rejected, std::int64_t(2));
        QCOMPARE(context.used(), std::int64_t(batch.size() - 2));
        const auto& log = context.result().points;
        std::size_t logged = 0;
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const bool ruledOut =
                i == static_cast<std::size_t>(failing[0]) || i == static_cast<std::size_t>(failing[1]);
            if (ruledOut) {
                QVERIFY(std::isinf(objectives[i]));
                continue;
            }
            const auto point = log[logged++];
            QCOMPARE(point.genome.toGenome(), batch[i]);
            const auto& r = fresh.evaluate(batch[i]);
            QCOMPARE(point.valid, r.valid);
            QCOMPARE(objectives[i], r.valid ? r.edp : std::numeric_limits<double>::infinity());
            if (i == static_cast<std::size_t>(failing[2]))
                QVERIFY(!r.valid); // capacity, or a check the model makes before it
        }
        QCOMPARE(logged, log.size());

        // One evaluation left: the first fitting genome takes it, and the call ends before the second
        // (every genome before it got an objective).
        SearchSettings one;
        one.budget = 1;
        SearchContext short_(layout, one);
        const std::size_t n = short_.evaluateFitting(batch, objectives, {10, false, false}, counts);
        QCOMPARE(n, static_cast<std::size_t>(fitting[1]));
        QCOMPARE(objectives.size(), n);
        QCOMPARE(short_.used(), std::int64_t(1));
        std::int64_t failingBefore = 0;
        for (int f : failing)
            failingBefore += f < fitting[1];
        QCOMPARE(counts.rejected, failingBefore);
    }

    // evaluateFitting with freeMalformed: a genome that fits but whose design the model finds malformed
    // (as a fresh evaluator says) gets +inf and stays out of the log, up to the cap; one past the cap is
    // evaluated and logged (invalid). The budget a malformed genome leaves goes to the next genomes.
    void evaluateFittingRulesOutMalformedUpToItsCap()
    {
        const auto layout = test::sampleLayout("mm3", "mobile");
        model::GenomeEvaluator fresh(layout);
        std::mt19937_64 rng(7);
        std::vector<Genome> ok, bad;
        while (ok.size() < 3 || bad.size() < 3) {
            Genome g = randomGenome(layout, rng);
            if (!fresh.dataFitsCapacity(g))
                continue;
            const auto& r = fresh.evaluate(g);
            auto& to = r.malformed ? bad : ok;
            if (r.malformed)
                QVERIFY(!r.valid);
            if (to.size() < 3)
                to.push_back(std::move(g));
        }
        const std::vector<Genome> batch{ok[0], bad[0], bad[1], ok[1], bad[2], ok[2]};
        SearchSettings settings;
        settings.budget = 100;
        SearchContext context(layout, settings);
        std::vector<double> objectives;
        SearchContext::FreeCounts counts;
        QCOMPARE(context.evaluateFitting(batch, objectives, {2, true, false}, counts), batch.size());
        QCOMPARE(counts.malformed, std::int64_t(2));
        QCOMPARE(counts.rejected, std::int64_t(2));
        QCOMPARE(context.used(), std::int64_t(4));
        const auto& log = context.result().points;
        const std::vector<Genome> logged{ok[0], ok[1], bad[2], ok[2]};
        QCOMPARE(log.size(), logged.size());
        for (std::size_t i = 0; i < logged.size(); ++i) {
            QCOMPARE(log[i].genome.toGenome(), logged[i]);
            QCOMPARE(log[i].valid, fresh.evaluate(logged[i]).valid);
        }
        QVERIFY(!log[2].valid); // the malformed genome past the cap
        for (std::size_t i : {1, 2, 4})
            QVERIFY(std::isinf(objectives[i]));
        const auto& first = fresh.evaluate(ok[0]);
        QCOMPARE(objectives[0], first.valid ? first.edp : std::numeric_limits<double>::infinity());

        // Two evaluations: ok[0] takes one, the two malformed ones none, ok[1] the other; the call ends
        // before bad[2] with every genome before it given an objective.
        SearchSettings two;
        two.budget = 2;
        SearchContext short_(layout, two);
        QCOMPARE(short_.evaluateFitting(batch, objectives, {10, true, false}, counts), std::size_t(4));
        QCOMPARE(objectives.size(), std::size_t(4));
        QCOMPARE(short_.used(), std::int64_t(2));
        QCOMPARE(counts.malformed, std::int64_t(2));
        QCOMPARE(counts.rejected, std::int64_t(2));
        QCOMPARE(short_.result().points[1].genome.toGenome(), ok[1]);
    }

    // A design that fits by its tiles' data (the pre-check) but overflows a buffer once its metadata is
    // counted: the model says so (overflows, a capacity reason, the level's data and metadata words over
    // its capacity as the result lists them), and evaluateFitting with `overflowing` rules it out without
    // an evaluation, within the cap; without the rule it is evaluated and logged (invalid).
    void evaluateFittingRulesOutOverflowingUpToItsCap()
    {
        const auto layout = test::sampleLayout("mm3", "edge"); // a small GLB, compressed tiles
        const auto& arch = layout.architecture();
        model::GenomeEvaluator fresh(layout);
        std::mt19937_64 rng(11);
        std::vector<Genome> ok, over;
        while (ok.size() < 2 || over.size() < 3) {
            Genome g = randomGenome(layout, rng);
            if (!fresh.dataFitsCapacity(g))
                continue;
            const auto& r = fresh.evaluate(g);
            if (r.malformed)
                continue;
            if (r.overflows) {
                QVERIFY(!r.valid);
                QVERIFY(r.reason.find("capacity exceeded at") != std::string::npos);
                bool someLevelOver = false;
                for (int s = 0; s < arch.levelCount(); ++s) {
                    if (arch.levels[s].unbounded())
                        continue;
                    // The edge preset's metadata shares the data capacity (no metadata storage of its own).
                    QCOMPARE(arch.levels[s].metadataCapacityBits, std::int64_t(0));
                    double data = 0, metadataBits = 0;
                    for (const auto& t : r.levels[s].tensors)
                        if (t.kept) {
                            data += t.maxDataWords;
                            metadataBits += t.maxMetadataBits;
                        }
                    const double words = data + std::ceil(metadataBits / arch.levels[s].wordBits);
                    someLevelOver =
                        someLevelOver || words > static_cast<double>(arch.levels[s].capacityWords());
                }
                QVERIFY(someLevelOver);
            } else {
                QVERIFY(r.reason.find("capacity exceeded") == std::string::npos);
            }
            auto& to = r.overflows ? over : ok;
            if (to.size() < (r.overflows ? 3u : 2u))
                to.push_back(std::move(g));
        }
        const std::vector<Genome> batch{over[0], ok[0], over[1], over[2], ok[1]};
        SearchSettings settings;
        settings.budget = 100;
        SearchContext context(layout, settings);
        std::vector<double> objectives;
        SearchContext::FreeCounts counts;
        QCOMPARE(context.evaluateFitting(batch, objectives, {2, true, true}, counts), batch.size());
        QCOMPARE(counts.overflowing, std::int64_t(2));
        QCOMPARE(counts.malformed, std::int64_t(0));
        QCOMPARE(counts.rejected, std::int64_t(2));
        QCOMPARE(context.used(), std::int64_t(3));
        const auto& log = context.result().points;
        const std::vector<Genome> logged{ok[0], over[2], ok[1]};
        QCOMPARE(log.size(), logged.size());
        for (std::size_t i = 0; i < logged.size(); ++i)
            QCOMPARE(log[i].genome.toGenome(), logged[i]);
        QVERIFY(!log[1].valid); // the overflowing genome past the cap
        for (std::size_t i : {0, 2, 3})
            QVERIFY(std::isinf(objectives[i]));

        // Without the rule every overflowing genome costs an evaluation.
        SearchContext charged(layout, settings);
        QCOMPARE(charged.evaluateFitting(batch, objectives, {10, true, false}, counts), batch.size());
        QCOMPARE(counts.overflowing, std::int64_t(0));
        QCOMPARE(counts.rejected, std::int64_t(0));
        QCOMPARE(charged.used(), std::int64_t(batch.size()));
    }

    // prefetchFitting starts a batch's work before evaluateFitting is called; evaluateFitting then gives what
    // it gives without: the same objectives, counts, log and best design, over batches that mix designs
    // that fit, overflow (by their data or with their metadata), are malformed, and a budget that ends
    // within a batch. A prefetched genome that is not the batch's item there is not used, nor are those an
    // evaluate() in between drops; the prefetched context runs on 2 threads, the other on 1.
    void prefetchedBatchesGiveWhatUnprefetchedOnesGive()
    {
        const auto layout = test::sampleLayout("mm3", "edge"); // every kind of genome
        model::GenomeEvaluator fresh(layout);
        std::mt19937_64 rng(13);
        std::vector<Genome> drawn, ok;
        int overflowing = 0, malformed = 0, dataOver = 0;
        while (drawn.size() < 160 || overflowing < 3 || malformed < 3 || dataOver < 3 || ok.size() < 20) {
            Genome g = randomGenome(layout, rng);
            if (!fresh.dataFitsCapacity(g)) {
                ++dataOver;
            } else {
                const auto& r = fresh.evaluate(g);
                overflowing += r.overflows;
                malformed += r.malformed;
                if (r.valid) { // rare here: kept apart, mixed in below
                    ok.push_back(std::move(g));
                    continue;
                }
            }
            if (drawn.size() < 160)
                drawn.push_back(std::move(g));
        }
        std::vector<Genome> genomes; // a valid genome after every fifth drawn one (ok[12..19] kept apart)
        for (std::size_t i = 0; i < drawn.size(); ++i) {
            genomes.push_back(drawn[i]);
            if (i % 5 == 4)
                genomes.push_back(ok[(i / 5) % 12]);
        }
        SearchSettings settings;
        settings.budget = 80; // ends within a batch (a third or more of the genomes cost nothing)
        settings.threads = 1;
        SearchContext plain(layout, settings);
        settings.threads = 2;
        SearchContext prefetched(layout, settings);
        const SearchContext::FreeRules rules[] = {{5, true, true}, {100, true, false}, {3, false, true}};
        std::vector<double> a, b;
        std::size_t from = 0;
        int round = 0;
        bool endedWithin = false; // a batch the budget ended in
        for (; from < genomes.size() && !endedWithin; ++round) {
            const std::size_t size = std::min<std::size_t>(genomes.size() - from, 17 + 9 * (round % 3));
            const std::span<const Genome> batch(genomes.data() + from, size);
            for (std::size_t i = 0; i < size; ++i) {
                if (round == 1 && i + 5 >= size)
                    break; // the last five not prefetched
                prefetched.prefetchFitting(round == 2 && i == 3 ? ok[18] : batch[i]); // one that differs
            }
            if (round == 3) { // dropped by an evaluation in between, in both contexts
                QCOMPARE(plain.evaluate(ok[1]), prefetched.evaluate(ok[1]));
            }
            const auto& rule = rules[round % 3];
            SearchContext::FreeCounts ca, cb;
            const auto na = plain.evaluateFitting(batch, a, rule, ca);
            const auto nb = prefetched.evaluateFitting(batch, b, rule, cb);
            QCOMPARE(nb, na);
            QCOMPARE(b.size(), a.size());
            for (std::size_t i = 0; i < a.size(); ++i)
                QVERIFY2(a[i] == b[i] || (std::isinf(a[i]) && std::isinf(b[i])),
                         qPrintable(QString::number(i)));
            QCOMPARE(cb.rejected, ca.rejected);
            QCOMPARE(cb.malformed, ca.malformed);
            QCOMPARE(cb.overflowing, ca.overflowing);
            from += size;
            endedWithin = na < size;
        }
        QVERIFY(plain.done());
        QVERIFY(endedWithin);
        QVERIFY(round > 4); // after the batch with an evaluation in between
        QCOMPARE(plain.prefetchedResults(), std::int64_t(0));
        QVERIFY(prefetched.prefetchedResults() > 0);
        const auto& la = plain.result().points;
        const auto& lb = prefetched.result().points;
        QCOMPARE(lb.size(), la.size());
        for (std::size_t i = 0; i < la.size(); ++i) {
            QCOMPARE(lb[i].genome.toGenome(), la[i].genome.toGenome());
            QCOMPARE(lb[i].valid, la[i].valid);
            QCOMPARE(lb[i].edp, la[i].edp);
        }
        QCOMPARE(prefetched.result().bestIndex, plain.result().bestIndex);
        QVERIFY(plain.result().bestIndex >= 0);
        QVERIFY(plain.result().bestDesign && prefetched.result().bestDesign);
        QCOMPARE(prefetched.result().bestDesign->evaluation.edp, plain.result().bestDesign->evaluation.edp);
        QCOMPARE(encodeDesign(layout, prefetched.result().bestDesign->decoded),
                 encodeDesign(layout, plain.result().bestDesign->decoded));
        QCOMPARE(encodeDesign(layout, prefetched.result().bestDesign->evaluated),
                 encodeDesign(layout, plain.result().bestDesign->evaluated));

        // A batch prefetched in full but for the genome at 2: every other item takes its prefetched result.
        SearchContext once(layout, settings);
        const std::vector<Genome> valid(ok.begin() + 12, ok.begin() + 18);
        for (std::size_t i = 0; i < valid.size(); ++i)
            once.prefetchFitting(i == 2 ? ok[19] : valid[i]);
        SearchContext::FreeCounts counts;
        QCOMPARE(once.evaluateFitting(valid, b, {10, true, true}, counts), valid.size());
        QCOMPARE(once.prefetchedResults(), std::int64_t(valid.size() - 1));
        for (std::size_t i = 0; i < valid.size(); ++i)
            QCOMPARE(b[i], fresh.evaluate(valid[i]).edp);
    }
};

QTEST_APPLESS_MAIN(TestSearchContext)
#include "test_search_context.moc"
