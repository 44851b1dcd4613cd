// FlatKeyIndex (util/flat_key_index.hpp): every distinct key gets the next index, the same key always
// finds that index, and a key that differs from a stored one in one element, in length or only by
// being a prefix is not found. Checked against std::map on keys built to collide in a small table
// (many short keys over few values, prefixes of one another, the empty key), through several growths
// of the table and after clear().
#include "util/flat_key_index.hpp"

#include <QtTest>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

using namespace sparsemap;

class TestUtilFlatKeyIndex : public QObject {
    Q_OBJECT

private slots:
    void indicesFollowFirstInsertion()
    {
        FlatKeyIndex<int> index;
        const std::vector<int> a{3, 1, 4}, b{3, 1}, c{3, 1, 4, 0}, empty;
        QCOMPARE(index.find(a), FlatKeyIndex<int>::npos); // nothing stored yet
        QCOMPARE(index.insert(a), std::make_pair(0u, true));
        QCOMPARE(index.insert(b), std::make_pair(1u, true));
        QCOMPARE(index.insert(a), std::make_pair(0u, false)); // already there: same index
        QCOMPARE(index.find(c), FlatKeyIndex<int>::npos);     // a longer key with a as its prefix
        QCOMPARE(index.find(empty), FlatKeyIndex<int>::npos);
        QCOMPARE(index.insert(empty), std::make_pair(2u, true));
        QCOMPARE(index.find(empty), 2u);
        QCOMPARE(index.size(), std::size_t{3});
        QVERIFY(std::ranges::equal(index.key(1), b));
        QVERIFY(index.key(2).empty());
    }

    void agreesWithAnOrderedMap()
    {
        std::mt19937_64 rng(7);
        FlatKeyIndex<std::int64_t> index;
        std::map<std::vector<std::int64_t>, std::uint32_t> reference;
        for (int round = 0; round < 2; ++round) {
            for (int i = 0; i < 20000; ++i) {
                // Lengths 0-5 over values -2..2: about 3,900 distinct keys, each inserted many times.
                std::vector<std::int64_t> key(rng() % 6);
                for (auto& v : key)
                    v = static_cast<std::int64_t>(rng() % 5) - 2;
                const auto [at, added] = index.insert(key);
                const auto [it, fresh] = reference.emplace(key, static_cast<std::uint32_t>(reference.size()));
                QCOMPARE(added, fresh);
                QCOMPARE(at, it->second);
            }
            QCOMPARE(index.size(), reference.size());
            for (const auto& [key, at] : reference) {
                QCOMPARE(index.find(key), at);
                QVERIFY(std::ranges::equal(index.key(at), key));
                auto longer = key;
                longer.push_back(3); // a value no stored key holds
                QCOMPARE(index.find(longer), FlatKeyIndex<std::int64_t>::npos);
            }
            index.clear();
            reference.clear();
            QCOMPARE(index.size(), std::size_t{0});
            QCOMPARE(index.find(std::vector<std::int64_t>{}), FlatKeyIndex<std::int64_t>::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestUtilFlatKeyIndex)
#include "test_util_flat_key_index.moc"
