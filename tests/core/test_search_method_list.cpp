// The method list as users meet it (--help, the Exploration view's chooser, sweeps): the default
// first, then the baselines, then the published ES with its Fig. 18 ablations, then the ablations of
// the default, then the variants not adopted. The expected names are the product's documented groups
// (README, "Search methods"), written out here by hand.
#include "search/method_registry.hpp"

#include <QtTest>

#include <fstream>
#include <set>
#include <string>
#include <vector>

using namespace sparsemap::search;

class TestSearchMethodList : public QObject {
    Q_OBJECT

private slots:
    void defaultThenBaselinesThenPaperThenAblations()
    {
        const auto list = methodList();
        QVERIFY(list.size() > 20);
        QCOMPARE(std::string(list[0].name), std::string("sparsemap"));
        QVERIFY(list[0].group == MethodGroup::Default);
        // The baselines come right after the default, the ones users compare with.
        const std::set<std::string> baselines{"mapper", "sage",  "mindmappings", "sa",   "ga",
                                              "pso",    "cmaes", "de",           "mcts", "random"};
        std::set<std::string> seen;
        for (std::size_t i = 1; i <= baselines.size(); ++i) {
            QVERIFY2(list[i].group == MethodGroup::Baseline, std::string(list[i].name).c_str());
            seen.insert(std::string(list[i].name));
        }
        QVERIFY(seen == baselines);
        // Then the published ES (the Fig. 18 reference) and its ablations.
        const std::set<std::string> paper{"sparsemap-paper", "es-pfce", "es-direct", "sparsemap-random-perm",
                                          "es-pfce-random-perm"};
        seen.clear();
        const std::size_t paperStart = 1 + baselines.size();
        for (std::size_t i = paperStart; i < paperStart + paper.size(); ++i) {
            QVERIFY2(list[i].group == MethodGroup::Paper, std::string(list[i].name).c_str());
            seen.insert(std::string(list[i].name));
        }
        QVERIFY(seen == paper);
        // Every later method is an ablation or variant of the default, named after it.
        for (std::size_t i = paperStart + paper.size(); i < list.size(); ++i) {
            QVERIFY(list[i].group == MethodGroup::Ablation || list[i].group == MethodGroup::Variant);
            QVERIFY2(std::string(list[i].name).rfind("sparsemap-", 0) == 0,
                     std::string(list[i].name).c_str());
            if (i > 0)
                QVERIFY(list[i - 1].group <= list[i].group);
        }
        // A variant measured and not adopted, and an ablation, in their groups.
        for (const auto& m : list) {
            if (m.name == "sparsemap-niches")
                QVERIFY(m.group == MethodGroup::Variant);
            if (m.name == "sparsemap-no-polish")
                QVERIFY(m.group == MethodGroup::Ablation);
        }
    }

    void theRegistryBuildsEveryMethodInListOrder()
    {
        const auto list = methodList();
        const auto& methods = searchMethods();
        QCOMPARE(methods.size(), list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            QCOMPARE(methods[i].name, std::string(list[i].name));
            QVERIFY(methods[i].group == list[i].group);
            QVERIFY(methods[i].make() != nullptr);
        }
    }

    void helpTextNamesTheGroupsInOrder()
    {
        const std::string text = methodNamesByGroup();
        QVERIFY(text.rfind("default: sparsemap; baselines: mapper, ", 0) == 0);
        const auto baselines = text.find("baselines:");
        const auto random = text.find(" random");
        const auto paper = text.find("published SparseMap ES");
        const auto ablations = text.find("ablations of sparsemap");
        const auto variants = text.find("variants measured, not adopted");
        QVERIFY(baselines < random && random < paper && paper < ablations && ablations < variants);
        QVERIFY(variants != std::string::npos);
        // No summary or heading speaks of the development history.
        QVERIFY(text.find("session") == std::string::npos);
        for (const auto& m : methodList())
            QVERIFY2(std::string(m.summary).find("session") == std::string::npos,
                     std::string(m.name).c_str());
    }

    // docs/search-methods.md lists every method once, in the code's order, under its group's heading.
    void theDocsListEveryMethodInItsGroup()
    {
        std::ifstream in(SPARSEMAP_SOURCE_DIR "/docs/search-methods.md");
        QVERIFY(in);
        std::vector<std::string> names;
        std::vector<std::string> headings;
        std::string line;
        std::string heading;
        while (std::getline(in, line)) {
            if (line.rfind("## ", 0) == 0)
                heading = line.substr(3);
            else if (line.rfind("| `", 0) == 0) {
                names.push_back(line.substr(3, line.find('`', 3) - 3));
                headings.push_back(heading);
            }
        }
        const auto list = methodList();
        QCOMPARE(names.size(), list.size());
        const std::vector<std::pair<MethodGroup, std::string>> expected{
            {MethodGroup::Default, "Default"},
            {MethodGroup::Baseline, "Baselines"},
            {MethodGroup::Paper, "The published SparseMap ES"},
            {MethodGroup::Ablation, "Ablations of `sparsemap`"},
            {MethodGroup::Variant, "Variants measured, not adopted"}};
        for (std::size_t i = 0; i < list.size(); ++i) {
            QCOMPARE(names[i], std::string(list[i].name));
            for (const auto& [group, title] : expected)
                if (group == list[i].group)
                    QVERIFY2(headings[i].rfind(title, 0) == 0, names[i].c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestSearchMethodList)
#include "test_search_method_list.moc"
