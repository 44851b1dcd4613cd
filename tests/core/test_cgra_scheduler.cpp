// The CGRA SparseMap scheduler (Algorithm 1) and its techniques on the paper's figure examples, the
// constraint checker, and the statistics on 100 random C8K8 blocks (zero probability 0.4).
#include "cgra/block_mapper.hpp"
#include "cgra/paper_blocks.hpp"
#include "cgra/schedule_checker.hpp"
#include "cgra/scheduler.hpp"

#include <QtTest>

using namespace sparsemap::cgra;

namespace {

int inputCops(const Schedule& s)
{
    int n = 0;
    for (const auto& node : s.graph.nodes)
        n += node.kind == NodeKind::Cop && node.channel >= 0;
    return n;
}

int timeOfRead(const Schedule& s, int channel)
{
    for (std::size_t v = 0; v < s.graph.nodes.size(); ++v)
        if (s.graph.nodes[v].kind == NodeKind::Read && s.graph.nodes[v].channel == channel &&
            s.graph.nodes[v].multicastOf < 0)
            return s.time[v];
    return -1;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const auto& l : lines)
        out += l + "\n";
    return out;
}

} // namespace

class TestCgraScheduler : public QObject {
    Q_OBJECT
private slots:
    void figure3AibaCutsMcidsFromThreeToOne()
    {
        // 8 x 2 array: 2 input buses, so the 4 channels need two time steps (MII 2). In channel order
        // {c0, c1} at t0 and {c2, c3} at t1 split kernels 0-2 (c1, c2): one MCID each (m@0 -> add@2).
        // AIBA pairs the most associated c1 and c2 (3 kernels need both): only kernel 3 (c0, c1, c3)
        // straddles, and RID-AT adds c0 + c3 at 2, then c1 at 3 (distance 3): one MCID.
        const auto block = figure3Block();
        const auto cgra = figure3Cgra();
        const auto with = scheduleSparseMap(block, cgra, {true, true, true});
        const auto without = scheduleSparseMap(block, cgra, {false, true, true});
        QVERIFY(with.success && without.success);
        QCOMPARE(with.schedule.ii, 2);
        QCOMPARE(without.schedule.ii, 2);
        QCOMPARE(without.schedule.mcidCount(), 3);
        QCOMPARE(with.schedule.mcidCount(), 1);
        QCOMPARE(timeOfRead(with.schedule, 1), timeOfRead(with.schedule, 2));
        QVERIFY(timeOfRead(without.schedule, 1) != timeOfRead(without.schedule, 2));
        QCOMPARE(with.schedule.copCount(), 0);
        QVERIFY(checkSchedule(with.schedule, block, cgra).empty());
        QVERIFY(checkSchedule(without.schedule, block, cgra).empty());
    }

    void figure4MulticastAvoidsTheInputCop()
    {
        // One input with 5 multiplications on 4 x 4: a bus reaches one column of 4 PEs.
        const auto block = figure4Block();
        const auto cgra = paperCgra();
        const auto multicast = scheduleSparseMap(block, cgra, {true, true, true});
        QVERIFY(multicast.success);
        QCOMPARE(multicast.schedule.multicastCount(), 1); // over 2 buses
        QCOMPARE(inputCops(multicast.schedule), 0);
        for (std::size_t v = 0; v < multicast.schedule.graph.nodes.size(); ++v)
            if (multicast.schedule.graph.nodes[v].kind == NodeKind::Mul)
                QCOMPARE(multicast.schedule.time[v], 0); // all with the input data
        // Without Mul-CI: 3 multiplications + the COP on the bus's column, 2 multiplications later.
        const auto single = scheduleSparseMap(block, cgra, {true, false, true});
        QVERIFY(single.success);
        QCOMPARE(single.schedule.multicastCount(), 0);
        QCOMPARE(inputCops(single.schedule), 1);
        // The same without multicast hardware, even with Mul-CI on.
        auto noCrossbar = cgra;
        noCrossbar.multicast = false;
        QCOMPARE(inputCops(scheduleSparseMap(block, noCrossbar, {true, true, true}).schedule), 1);
        for (const auto* s : {&multicast.schedule, &single.schedule})
            QVERIFY(checkSchedule(*s, block, cgra).empty());
    }

    void figure5RidAtCutsMcidsFromThreeToOne()
    {
        // A kernel of 4 multiplications at times 0, 2, 1, 3 (channel order). Fixed tree: (m0+m1)@3 has
        // m0 at distance 3, (m2+m3)@4 has m2 at distance 3, the root @5 has (m0+m1) at distance 2: 3 MCIDs.
        // RID-AT: m0+m2 @2 (m0 at distance 2), then +m1 @3, then +m3 @4: 1 MCID.
        int fixedMcids = 0, rebuiltMcids = 0;
        QCOMPARE(fixedAdderTreeTimes({0, 2, 1, 3}, fixedMcids), (std::vector<int>{3, 4, 5}));
        QCOMPARE(rebuildAdderTreeTimes({0, 2, 1, 3}, rebuiltMcids), (std::vector<int>{2, 3, 4}));
        QCOMPARE(fixedMcids, 3);
        QCOMPARE(rebuiltMcids, 1);
    }

    void checkerCatchesBrokenSchedules()
    {
        const auto block = figure3Block();
        const auto cgra = figure3Cgra();
        const auto good = scheduleSparseMap(block, cgra).schedule;
        QVERIFY(checkSchedule(good, block, cgra).empty());
        // A multiplication moved off its input's cycle breaks constraint (1).
        auto late = good;
        for (std::size_t v = 0; v < late.graph.nodes.size(); ++v)
            if (late.graph.nodes[v].kind == NodeKind::Mul) {
                late.time[v] += 1;
                break;
            }
        const auto p1 = checkSchedule(late, block, cgra);
        QVERIFY(!p1.empty());
        QVERIFY(p1.front().find("distance 0") != std::string::npos);
        // Folding everything into one modulo slot breaks constraint (2).
        auto folded = good;
        folded.ii = 1;
        bool busesOver = false;
        for (const auto& p : checkSchedule(folded, block, cgra))
            busesOver = busesOver || p.find("input buses") != std::string::npos;
        QVERIFY(busesOver);
        // A writing fed by the wrong kernel's sum.
        auto wrong = good;
        for (auto& e : wrong.graph.edges)
            if (e.kind == EdgeKind::Output) {
                for (const auto& f : wrong.graph.edges)
                    if (f.kind == EdgeKind::Output && f.to != e.to &&
                        wrong.time[std::size_t(f.from)] == wrong.time[std::size_t(e.from)]) {
                        e.from = f.from;
                        break;
                    }
                break;
            }
        bool sumWrong = false;
        for (const auto& p : checkSchedule(wrong, block, cgra))
            sumWrong = sumWrong || p.find("does not receive the sum") != std::string::npos;
        QVERIFY(sumWrong);
    }

    void paperBlocksReachMiiWithValidSchedules()
    {
        for (const auto& block : paperBlocks())
            for (auto v : {MappingVariant::SparseMap, MappingVariant::AibaMulCi, MappingVariant::Aiba,
                           MappingVariant::NoTechniques, MappingVariant::Baseline}) {
                MappingOptions options;
                options.variant = v;
                const auto r = mapBlock(block, paperCgra(), options);
                QVERIFY2(r.scheduled, r.failure.c_str());
                QVERIFY2(r.checkerProblems.empty(), joined(r.checkerProblems).c_str());
                if (v == MappingVariant::SparseMap) // the paper: MII at the first attempt on all seven
                    QVERIFY2(r.firstIi == r.mii, block.name.c_str());
            }
    }

    void cancelStopsBeforeTheNextAttempt()
    {
        const auto block = paperBlocks().front();
        MappingOptions options;
        int asked = 0, reported = 0;
        options.progress = [&](const std::string&) { ++reported; };
        // Cancelled from the start: nothing is scheduled.
        options.cancelled = [&] { return ++asked > 0; };
        const auto none = mapBlock(block, paperCgra(), options);
        QVERIFY(none.cancelled && !none.scheduled && !none.success);
        QCOMPARE(asked, 1);
        QCOMPARE(reported, 0);
        // Cancelled after the first schedule: it is kept, the binding is not tried.
        asked = 0;
        options.cancelled = [&] { return ++asked > 1; };
        const auto scheduledOnly = mapBlock(block, paperCgra(), options);
        QVERIFY(scheduledOnly.cancelled && !scheduledOnly.success);
        QVERIFY(scheduledOnly.scheduled && scheduledOnly.firstIi == scheduledOnly.mii);
        QVERIFY(!scheduledOnly.firstSuccess);
        QCOMPARE(asked, 2);
        QCOMPARE(reported, 1);
        QVERIFY(scheduledOnly.failure.find("binding") != std::string::npos);
        // Never cancelled: the same result as without the hook.
        options.cancelled = [] { return false; };
        const auto full = mapBlock(block, paperCgra(), options);
        const auto plain = mapBlock(block, paperCgra());
        QVERIFY(!full.cancelled);
        QCOMPARE(full.success, plain.success);
        QCOMPARE(full.finalIi, plain.finalIi);
    }

    void hundredRandomC8K8Blocks()
    {
        struct Sum {
            int atMii = 0, cops = 0, mcids = 0, mapped = 0;
        };
        const MappingVariant variants[] = {MappingVariant::Baseline, MappingVariant::Aiba,
                                           MappingVariant::AibaMulCi, MappingVariant::SparseMap};
        Sum sums[4];
        for (int seed = 1; seed <= 100; ++seed) {
            const auto block = randomBlock(8, 8, 0.4, std::uint64_t(seed));
            for (int i = 0; i < 4; ++i) {
                MappingOptions options;
                options.variant = variants[i];
                const auto r = mapBlock(block, paperCgra(), options);
                QVERIFY2(r.scheduled, r.failure.c_str());
                QVERIFY2(r.checkerProblems.empty(), joined(r.checkerProblems).c_str());
                sums[i].atMii += r.firstIi == r.mii;
                sums[i].cops += r.firstCops;
                sums[i].mcids += r.firstMcids;
                sums[i].mapped += r.success;
            }
        }
        for (int i = 0; i < 4; ++i)
            qInfo("%-10s II_0 = MII on %d, COPs %d, MCIDs %d, mapped %d", variantName(variants[i]).c_str(),
                  sums[i].atMii, sums[i].cops, sums[i].mcids, sums[i].mapped);
        const auto& base = sums[0];
        const auto& aiba = sums[1];
        const auto& mulci = sums[2];
        const auto& full = sums[3];
        QVERIFY(full.atMii > 50);         // most blocks at MII on the first attempt
        QVERIFY(full.cops < base.cops);   // fewer COPs than the baseline in total
        QVERIFY(full.mcids < base.mcids); // and fewer MCIDs
        QVERIFY(full.mapped > base.mapped);
        // Table 4's ordering: Mul-CI removes most COPs and MCIDs; RID-AT removes more MCIDs.
        QVERIFY(mulci.cops < aiba.cops);
        QVERIFY(mulci.mcids < aiba.mcids);
        QVERIFY(full.mcids < mulci.mcids);
        QVERIFY(full.atMii > aiba.atMii);
    }
};

QTEST_GUILESS_MAIN(TestCgraScheduler)
#include "test_cgra_scheduler.moc"
