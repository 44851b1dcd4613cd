// Mind Mappings (issue 6): the MLP's gradients against finite differences, the Huber loss by hand,
// the algorithmic minimum by hand, projection of any real vector to an in-bounds genome within every
// fan-out, convergence of the projected gradient search on a smooth objective with a known optimum,
// exact budget accounting, determinism across thread counts, cancellation, parameter checks, and the
// three-input MTTKRP sample that the genome cannot encode.
#include "genome/genome_codec.hpp"
#include "io/architecture_io.hpp"
#include "io/workload_io.hpp"
#include "model/genome_evaluator.hpp"
#include "search/genome_checks.hpp"
#include "search/method_registry.hpp"
#include "search/mindmappings/mindmappings_search.hpp"
#include "sample_inputs.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "workload/workload_factory.hpp"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace sparsemap;
using namespace sparsemap::search;

namespace {

// Small and fast settings: what is tested here is accounting and determinism, not search quality.
MindMappingsParameters quickParameters()
{
    MindMappingsParameters p;
    p.surrogate.hidden = {16};
    p.surrogate.training.epochs = 10;
    p.surrogate.training.decayEvery = 5;
    return p;
}

SearchResult runMm(const GenomeLayout& layout, std::int64_t budget, int threads, std::uint64_t seed,
                   MindMappingsSearch* optimizer = nullptr, const CancelToken* cancel = nullptr,
                   const ProgressCallback& progress = {})
{
    MindMappingsSearch local(quickParameters());
    SearchSettings settings;
    settings.budget = budget;
    settings.seed = seed;
    settings.threads = threads;
    return runSearch(optimizer ? *optimizer : local, layout, settings, {}, cancel, progress);
}

// A smooth bowl over integer genes 0..20 with its minimum at `target`: the surrogate is the exact
// quadratic, the "real" objective is the same quadratic at the projected genome.
class BowlSpace : public GradientSearchSpace {
public:
    explicit BowlSpace(Genome target) : m_target(std::move(target)) {}
    Eigen::VectorXd coordinates(const Genome& g) const override
    {
        Eigen::VectorXd x(static_cast<Eigen::Index>(g.size()));
        for (std::size_t i = 0; i < g.size(); ++i)
            x[static_cast<Eigen::Index>(i)] = g[i];
        return x;
    }
    Genome project(const Eigen::VectorXd& x) const override
    {
        Genome g(static_cast<std::size_t>(x.size()));
        for (Eigen::Index i = 0; i < x.size(); ++i)
            g[static_cast<std::size_t>(i)] = static_cast<int>(std::clamp(std::round(x[i]), 0.0, 20.0));
        return g;
    }
    void clampToBox(Eigen::VectorXd& x) const override { x = x.cwiseMax(0.0).cwiseMin(20.0); }
    double gradient(const Eigen::VectorXd& x, Eigen::VectorXd& grad) const override
    {
        const Eigen::VectorXd d = x - coordinates(m_target);
        grad = 2 * d;
        return d.squaredNorm();
    }
    double real(const Genome& g) const
    {
        double s = 0;
        for (std::size_t i = 0; i < g.size(); ++i)
            s += double(g[i] - m_target[i]) * double(g[i] - m_target[i]);
        return s;
    }

private:
    Genome m_target;
};

} // namespace

class TestMindMappings : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { m_layout = std::make_unique<GenomeLayout>(test::sampleLayout("mm3", "cloud")); }

    void mlpGradientsMatchFiniteDifferences()
    {
        std::mt19937_64 rng(3);
        Mlp mlp({3, 5, 4, 2}, rng);
        for (int l = 0; l < mlp.layerCount(); ++l) // non-zero biases, so that they are checked too
            mlp.biases(l).setConstant(0.1 * (l + 1));
        Eigen::MatrixXd x(3, 4), y(2, 4);
        x << 0.3, -1.2, 0.8, 2.0, //
            -0.5, 0.4, 1.5, -0.1, //
            1.1, 0.0, -0.7, 0.6;
        y << 0.5, -3.0, 0.2, 1.0, //
            2.5, 0.1, -0.4, 0.0;
        auto loss = [&](const Mlp& m, const Eigen::MatrixXd& in) {
            return huberLoss(m.forward(in), y, 1.0, nullptr);
        };
        Eigen::MatrixXd dOut, dIn;
        huberLoss(mlp.forward(x), y, 1.0, &dOut);
        Mlp::Gradients g;
        mlp.backward(x, dOut, g, &dIn);
        const double h = 1e-6;
        for (int l = 0; l < mlp.layerCount(); ++l) {
            for (Eigen::Index i = 0; i < mlp.weights(l).size(); ++i) {
                const double w = mlp.weights(l).data()[i];
                mlp.weights(l).data()[i] = w + h;
                const double up = loss(mlp, x);
                mlp.weights(l).data()[i] = w - h;
                const double down = loss(mlp, x);
                mlp.weights(l).data()[i] = w;
                QVERIFY2(std::abs((up - down) / (2 * h) - g.weights[l].data()[i]) < 1e-7,
                         qPrintable(QString("weight %1 of layer %2").arg(i).arg(l)));
            }
            for (Eigen::Index i = 0; i < mlp.biases(l).size(); ++i) {
                const double b = mlp.biases(l)[i];
                mlp.biases(l)[i] = b + h;
                const double up = loss(mlp, x);
                mlp.biases(l)[i] = b - h;
                const double down = loss(mlp, x);
                mlp.biases(l)[i] = b;
                QVERIFY(std::abs((up - down) / (2 * h) - g.biases[l][i]) < 1e-7);
            }
        }
        for (Eigen::Index i = 0; i < x.size(); ++i) {
            Eigen::MatrixXd xp = x, xm = x;
            xp.data()[i] += h;
            xm.data()[i] -= h;
            QVERIFY(std::abs((loss(mlp, xp) - loss(mlp, xm)) / (2 * h) - dIn.data()[i]) < 1e-7);
        }
        // The search's gradient: d(w . output)/d(input) at one point.
        const Eigen::Vector2d w(0.7, -1.3);
        const Eigen::VectorXd x0 = x.col(1);
        const Eigen::VectorXd gi = mlp.inputGradient(x0, w);
        for (int i = 0; i < 3; ++i) {
            Eigen::VectorXd xp = x0, xm = x0;
            xp[i] += h;
            xm[i] -= h;
            const double fd = (w.dot(mlp.forward(xp).col(0)) - w.dot(mlp.forward(xm).col(0))) / (2 * h);
            QVERIFY(std::abs(fd - gi[i]) < 1e-7);
        }
    }

    void huberLossByHand()
    {
        // Residuals 0.5 (quadratic: 0.125) and 3 (linear: 3 - 0.5 = 2.5): mean 1.3125; gradients are
        // the residuals clipped to [-1, 1] over the two entries: 0.25 and 0.5.
        Eigen::MatrixXd pred(1, 2), target = Eigen::MatrixXd::Zero(1, 2), grad;
        pred << 0.5, 3.0;
        QCOMPARE(huberLoss(pred, target, 1.0, &grad), 1.3125);
        QCOMPARE(grad(0, 0), 0.25);
        QCOMPARE(grad(0, 1), 0.5);
    }

    void trainingFitsALinearFunction()
    {
        // y = 2 x0 - x1: a network trained by SGD must get the training loss far below its start.
        std::mt19937_64 rng(5);
        Mlp mlp({2, 8, 1}, rng);
        Eigen::MatrixXd x = Eigen::MatrixXd::Random(2, 200), y(1, 200);
        y.row(0) = 2 * x.row(0) - x.row(1);
        const double before = huberLoss(mlp.forward(x), y, 1.0, nullptr);
        MlpTraining t;
        t.epochs = 60;
        t.decayEvery = 40;
        t.learningRate = 0.05;
        trainMlp(mlp, x, y, t, rng);
        QVERIFY(huberLoss(mlp.forward(x), y, 1.0, nullptr) < 0.02 * before);
    }

    void algorithmicMinimumByHand()
    {
        // 4x4x4 SpMM on the test template (4 PEs x 4 MACs; read energies DRAM 32, GLB 1, PE 0.1 pJ,
        // no write entry, so writes cost the largest listed entry, the read; MAC 0.06 pJ).
        const auto arch = test::templateArchitecture(4, 4);
        const GenomeLayout dense(makeSpmm("d", 4, 4, 4, uniformDensity(1.0), uniformDensity(1.0)), arch);
        const auto m = algorithmicMinimum(dense);
        // 16 + 16 input words read once and 16 output words written once: 48 accesses per level.
        QCOMPARE(m.levelEnergyPj.size(), std::size_t(3));
        QCOMPARE(m.levelEnergyPj[0], 48 * 32.0);
        QCOMPARE(m.levelEnergyPj[1], 48 * 1.0);
        QCOMPARE(m.levelEnergyPj[2], 48 * 0.1);
        QCOMPARE(m.computeEnergyPj, 64 * 0.06);
        QCOMPARE(m.cycles, 64.0 / 16);
        QCOMPARE(m.energyPj, 48 * 33.1 + 64 * 0.06);
        // Densities 0.5 and 0.25: 8 + 4 input nonzeros, 16 outputs; 64 x 0.125 = 8 effectual MACs
        // take half a cycle on 16 MACs, counted as one cycle.
        const GenomeLayout sparse(makeSpmm("s", 4, 4, 4, uniformDensity(0.5), uniformDensity(0.25)), arch);
        const auto s = algorithmicMinimum(sparse);
        QCOMPARE(s.levelEnergyPj[0], 28 * 32.0);
        QCOMPARE(s.computeEnergyPj, 8 * 0.06);
        QCOMPARE(s.cycles, 1.0);
    }

    void projectionIsInBoundsAndWithinFanout()
    {
        const GenomeRelaxation relax(*m_layout);
        std::mt19937_64 rng(11);
        std::normal_distribution<double> wild(0.0, 100.0);
        for (int trial = 0; trial < 500; ++trial) {
            Eigen::VectorXd x(relax.size());
            for (Eigen::Index i = 0; i < x.size(); ++i)
                x[i] = trial % 7 == 0 && i % 5 == 0 ? std::numeric_limits<double>::quiet_NaN() : wild(rng);
            const Genome g = relax.project(x);
            m_layout->validate(g); // throws if out of range
            QVERIFY(spatialFanoutFits(*m_layout, g));
        }
        // A genome that fits is its own projection.
        int fitting = 0;
        for (int trial = 0; trial < 200; ++trial) {
            const Genome g = randomGenome(*m_layout, rng);
            if (!spatialFanoutFits(*m_layout, g))
                continue;
            ++fitting;
            QCOMPARE(relax.project(relax.relax(g)), g);
        }
        QVERIFY(fitting > 0);
    }

    void projectionRepairsAnOverflowingFanout()
    {
        // Every tiling factor on the spatial level below the GLB: far beyond any fan-out.
        const GenomeRelaxation relax(*m_layout);
        Genome g(static_cast<std::size_t>(m_layout->size()), 0);
        for (int i = 0; i < m_layout->size(); ++i)
            g[static_cast<std::size_t>(i)] = m_layout->gene(i).lower;
        const auto tiling = m_layout->segment(GeneSegment::Tiling);
        const auto& mappingLevels = m_layout->mappingLevels();
        int spatial = -1;
        for (std::size_t s = 0; s < mappingLevels.size(); ++s)
            if (mappingLevels[s].kind == LoopKind::Spatial)
                spatial = static_cast<int>(s) + 1;
        QVERIFY(spatial > 0);
        for (int i = tiling.begin; i < tiling.end; ++i)
            g[static_cast<std::size_t>(i)] = spatial;
        QVERIFY(!spatialFanoutFits(*m_layout, g));
        const Genome p = relax.project(relax.relax(g));
        QVERIFY(spatialFanoutFits(*m_layout, p));
        m_layout->validate(p);
        // Only tiling genes moved, and only off the overflowing spatial level.
        for (int i = 0; i < m_layout->size(); ++i)
            if (p[static_cast<std::size_t>(i)] != g[static_cast<std::size_t>(i)])
                QVERIFY(i >= tiling.begin && i < tiling.end && g[static_cast<std::size_t>(i)] == spatial);
    }

    void gradientSearchConvergesOnASmoothBowl()
    {
        const Genome target{3, 17, 8, 0, 20, 11};
        BowlSpace space(target);
        std::mt19937_64 rng(9);
        std::uniform_int_distribution<int> gene(0, 20);
        std::int64_t evaluations = 0;
        double best = std::numeric_limits<double>::infinity();
        Genome bestGenome;
        auto score = [&](const Genome& g) {
            ++evaluations;
            const double v = space.real(g);
            if (v < best) {
                best = v;
                bestGenome = g;
            }
            return v;
        };
        GradientSearchHooks hooks;
        hooks.evaluate = [&](std::span<const Genome> gs, std::vector<double>& o) {
            o.clear();
            for (const auto& g : gs)
                o.push_back(score(g));
            return gs.size();
        };
        hooks.randomValid = [&](ScoredGenome& out) {
            Genome g(target.size());
            for (auto& v : g)
                v = gene(rng);
            out = {g, score(g)};
            return true;
        };
        hooks.done = [&] { return evaluations >= 300; };
        GradientSearchParameters p;
        p.chains = 2;
        p.learningRate = 0.25; // halves the distance to the optimum every step
        std::vector<ScoredGenome> starts;
        for (int c = 0; c < 2; ++c) {
            ScoredGenome s;
            hooks.randomValid(s);
            starts.push_back(s);
        }
        const auto stats = projectedGradientSearch(space, p, starts, hooks, rng);
        QCOMPARE(bestGenome, target);
        QCOMPARE(best, 0.0);
        QVERIFY(stats.steps > 0);
        QVERIFY(stats.injections > 0);
    }

    void budgetIsExactAndBestIsTheModelsBest()
    {
        MindMappingsSearch mm(quickParameters());
        const auto r = runMm(*m_layout, 1500, 0, 4, &mm);
        QCOMPARE(r.points.size(), std::size_t(1500));
        QCOMPARE(r.convergence.back().evaluations, std::int64_t(1500));
        const auto& report = mm.report();
        QVERIFY(report.surrogateTrained);
        QCOMPARE(report.samplingEvaluations, std::int64_t(450)); // 30% of 1500
        QVERIFY(report.validSamples >= 32);
        QCOMPARE(report.trainedOn + report.heldOut, report.validSamples);
        QCOMPARE(report.heldOut, int(std::floor(0.15 * report.validSamples)));
        QCOMPARE(report.epochs, 10);
        // Every phase-2 evaluation is a scored step or a fresh injection draw.
        QVERIFY(report.search.scored <= 1500 - 450);
        std::int64_t best = -1;
        for (std::size_t i = 0; i < r.points.size(); ++i) {
            const auto p = r.points[i];
            const Genome genome = p.genome;
            m_layout->validate(genome);
            QVERIFY(spatialFanoutFits(*m_layout, genome)); // every evaluated design passed the pre-check
            if (p.valid && (best < 0 || p.objective < r.points[std::size_t(best)].objective))
                best = std::int64_t(i);
        }
        QCOMPARE(r.bestIndex, best);
        QVERIFY(best >= 0);
    }

    void runsUnderTheContextsModelOptions()
    {
        // Capacity checked at the 0.5 occupancy quantile (beyond Sparseloop) admits designs that the
        // worst case rejects. The surrogate's statistics come from re-scoring the valid samples, which
        // must use the run's options: with the defaults the re-scoring finds such a design invalid.
        const GenomeLayout layout = test::sampleLayout("mm3", "edge");
        model::ModelOptions relaxed;
        relaxed.occupancyConfidence = 0.5;
        MindMappingsSearch mm(quickParameters());
        SearchSettings settings;
        settings.budget = 1000;
        settings.seed = 3;
        const auto r = runSearch(mm, layout, settings, relaxed);
        QVERIFY(mm.report().surrogateTrained);
        model::GenomeEvaluator worstCase(layout);
        int onlyRelaxed = 0;
        for (const auto& p : r.points)
            if (p.valid && !worstCase.evaluate(p.genome.toGenome()).valid)
                ++onlyRelaxed;
        QVERIFY(onlyRelaxed > 0); // the run did meet designs the defaults reject
    }

    void sameSeedSameRunForAnyThreadCount()
    {
        const auto a = runMm(*m_layout, 1200, 1, 21);
        const auto b = runMm(*m_layout, 1200, 2, 21);
        QCOMPARE(a.points.size(), b.points.size());
        for (std::size_t i = 0; i < a.points.size(); ++i) {
            QCOMPARE(a.points[i].genome, b.points[i].genome);
            QCOMPARE(a.points[i].objective, b.points[i].objective);
        }
        QCOMPARE(a.bestIndex, b.bestIndex);
        const auto c = runMm(*m_layout, 1200, 2, 22);
        bool differs = false;
        for (std::size_t i = 0; i < std::min(a.points.size(), c.points.size()); ++i)
            differs = differs || a.points[i].genome != c.points[i].genome;
        QVERIFY(differs);
    }

    void cancelStopsTheRun()
    {
        CancelToken token;
        int reports = 0;
        // Cancelled when sampling ends (1500 = 30% of 5000): training stops before its first
        // mini-batch and phase 2 evaluates nothing.
        const auto r = runMm(*m_layout, 5000, 0, 3, nullptr, &token, [&](const GenerationStats& g) {
            ++reports;
            if (g.evaluations >= 1500)
                token.cancel();
        });
        QVERIFY(r.cancelled);
        QCOMPARE(r.points.size(), std::size_t(1500));
        QVERIFY(reports > 0);
    }

    void registeredAndParametersChecked()
    {
        QCOMPARE(QString::fromStdString(makeOptimizer("mindmappings")->name()), QString("mindmappings"));
        auto bad = [](auto change) {
            MindMappingsParameters p;
            change(p);
            try {
                MindMappingsSearch s(p);
            } catch (const std::invalid_argument&) {
                return true;
            }
            return false;
        };
        QVERIFY(bad([](MindMappingsParameters& p) { p.trainingShare = 1.0; }));
        QVERIFY(bad([](MindMappingsParameters& p) { p.surrogate.hidden = {0}; }));
        QVERIFY(bad([](MindMappingsParameters& p) { p.surrogate.training.momentum = 1.0; }));
        QVERIFY(bad([](MindMappingsParameters& p) { p.search.learningRate = 0; }));
        QVERIFY(bad([](MindMappingsParameters& p) { p.search.cooling = 1.5; }));
        QVERIFY(!bad([](MindMappingsParameters&) {}));
    }

    void tinyBudgetIsARandomSearch()
    {
        MindMappingsSearch mm(quickParameters());
        const auto r = runMm(*m_layout, 20, 0, 1, &mm);
        QCOMPARE(r.points.size(), std::size_t(20));
        QVERIFY(!mm.report().surrogateTrained); // fewer than 32 valid designs can exist in 20
    }

    // MTTKRP has three inputs: the genome has a format segment for each of A, B, C and O (issue 17).
    // On cloud: perm 5, tiling 7 + 10 + 12 + 11 = 40 (128, 1024, 4096, 2048 are powers of 2),
    // formats 20, S/G 3.
    void mttkrpSampleLoadsAndMindMappingsSearchesIt()
    {
        const auto w = test::sampleWorkload("mttkrp");
        QCOMPARE(w.inputTensors().size(), std::size_t(3));
        QCOMPARE(w.denseMacs(), 128.0 * 1024 * 4096 * 2048);
        const GenomeLayout layout(w, loadPreset("cloud"));
        QCOMPARE(layout.size(), 68);
        QCOMPARE(layout.formatSegmentCount(), 4);
        MindMappingsSearch mm(quickParameters());
        const auto r = runMm(layout, 200, 1, 1, &mm);
        QCOMPARE(r.points.size(), std::size_t(200));
        for (std::size_t i = 0; i < r.points.size(); ++i)
            layout.validate(Genome(r.points[i].genome));
    }

    // The eight problems of the paper's Table 1 (samples/workloads/mindmappings/, read as its README says):
    // dense MACs worked out by hand from the sizes, outputs W - R + 1 (no padding, Eq. 3).
    void tableOneProblemsHaveThePapersSizes()
    {
        struct Problem {
            const char* file;
            double macs;
            std::size_t inputs;
        };
        const Problem problems[] = {
            {"resnet-conv3", 16.0 * 128 * 128 * 26 * 26 * 3 * 3, 2},
            {"resnet-conv4", 16.0 * 256 * 256 * 12 * 12 * 3 * 3, 2},
            {"inception-conv2", 32.0 * 192 * 192 * 54 * 54 * 3 * 3, 2},
            {"vgg-conv2", 16.0 * 128 * 64 * 110 * 110 * 3 * 3, 2},
            {"alexnet-conv2", 8.0 * 256 * 96 * 23 * 23 * 5 * 5, 2},
            {"alexnet-conv4", 8.0 * 384 * 384 * 11 * 11 * 3 * 3, 2},
            {"mttkrp0", 128.0 * 1024 * 4096 * 2048, 3},
            {"mttkrp1", 2048.0 * 4096 * 1024 * 128, 3},
            {"mttkrp0-sparse", 128.0 * 1024 * 4096 * 2048, 3},
            {"mttkrp1-sparse", 2048.0 * 4096 * 1024 * 128, 3},
        };
        for (const auto& p : problems) {
            const auto w = test::sampleWorkload(std::string("mindmappings/") + p.file);
            QVERIFY2(w.denseMacs() == p.macs, p.file);
            QVERIFY2(w.inputTensors().size() == p.inputs, p.file);
            const bool sparse = std::string(p.file).ends_with("-sparse");
            for (int t : w.inputTensors())
                QVERIFY2(w.tensors[std::size_t(t)].density.density ==
                             (sparse && t == w.inputTensors()[0] ? 2.4e-5 : 1.0),
                         p.file);
        }
    }

private:
    std::unique_ptr<GenomeLayout> m_layout;
};

QTEST_APPLESS_MAIN(TestMindMappings)
#include "test_mindmappings.moc"
