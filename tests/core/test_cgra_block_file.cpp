// Sparse-block inputs of the CGRA mapping: mask files (good and bad), random and workload-cut blocks.
#include "cgra/block_file.hpp"
#include "cgra/sparse_block.hpp"
#include "io/workload_io.hpp"
#include "util/error.hpp"

#include "sample_inputs.hpp"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <regex>

using namespace sparsemap;
using namespace sparsemap::cgra;
namespace fs = std::filesystem;

namespace {

const fs::path kBadDir = fs::path(SPARSEMAP_SOURCE_DIR) / "tests" / "data" / "bad" / "cgra";

} // namespace

class TestCgraBlockFile : public QObject {
    Q_OBJECT
private slots:
    void rowsMaySeparateWithSpacesCommasOrNothing()
    {
        const auto a = parseBlockText("# k0\n1 0 1 1\n0,1,1,0\n0110 # trailing comment\n\n", "a.mask");
        QCOMPARE(a.channels, 4);
        QCOMPARE(a.kernels, 3);
        QCOMPARE(a.nnz(), 7);
        QVERIFY(a.weight(0, 0) && !a.weight(0, 1) && a.weight(0, 3));
        QVERIFY(!a.weight(1, 0) && a.weight(1, 2));
        QCOMPARE(a.fanout(2), 3);
        QCOMPARE(a.kernelSize(0), 3);
        QCOMPARE(a.name, std::string("a"));
    }

    void saveThenLoadGivesTheSameMask()
    {
        const auto block = randomBlock(7, 5, 0.4, 11);
        QTemporaryDir dir;
        const std::string path = (fs::path(dir.path().toStdString()) / "b.mask").string();
        saveBlockFile(path, block);
        const auto back = loadBlockFile(path);
        QCOMPARE(back.channels, 7);
        QCOMPARE(back.kernels, 5);
        QVERIFY(back.mask == block.mask);
    }

    void randomBlockIsReproducibleAndHasTheRequestedSparsity()
    {
        QVERIFY(randomBlock(8, 8, 0.4, 3).mask == randomBlock(8, 8, 0.4, 3).mask);
        QVERIFY(randomBlock(8, 8, 0.4, 3).mask != randomBlock(8, 8, 0.4, 4).mask);
        // 100 blocks of 64 weights: the zero share is 0.4 within a few standard errors (sd 0.0061).
        int zeros = 0;
        for (int s = 0; s < 100; ++s)
            zeros += 64 - randomBlock(8, 8, 0.4, std::uint64_t(s)).nnz();
        QVERIFY2(std::abs(zeros / 6400.0 - 0.4) < 0.025, qPrintable(QString::number(zeros)));
        QVERIFY_THROWS_EXCEPTION(InputError, randomBlock(8, 8, 1.0, 1));
        QVERIFY_THROWS_EXCEPTION(InputError, randomBlock(0, 8, 0.4, 1));
        QVERIFY_THROWS_EXCEPTION(InputError, randomBlock(8, 33, 0.4, 1));
    }

    void blockCutFromSpconvUsesItsWeightDensity()
    {
        const auto conv = test::sampleWorkload("conv4"); // dW 0.647
        int nnz = 0;
        for (int s = 0; s < 50; ++s)
            nnz += blockFromWorkload(conv, 8, 8, std::uint64_t(s)).nnz();
        QVERIFY2(std::abs(nnz / 3200.0 - 0.647) < 0.04, qPrintable(QString::number(nnz)));
        const auto spmm = test::sampleWorkload("mm1");
        QVERIFY_THROWS_EXCEPTION(InputError, blockFromWorkload(spmm, 8, 8, 1));
        const auto small = test::sampleWorkload("conv1"); // C 3
        QVERIFY_THROWS_EXCEPTION(InputError, blockFromWorkload(small, 8, 8, 1));
    }

    void tooManyKernelRowsIsRejected()
    {
        std::string text;
        for (int k = 0; k < 33; ++k)
            text += "1 0\n";
        QVERIFY_THROWS_EXCEPTION(InputError, parseBlockText(text, "tall.mask"));
    }

    void badFileIsRejected_data()
    {
        QTest::addColumn<QString>("file");
        int count = 0;
        for (const auto& entry : fs::directory_iterator(kBadDir))
            if (entry.path().extension() == ".mask") {
                QTest::newRow(entry.path().filename().string().c_str())
                    << QString::fromStdString(entry.path().string());
                ++count;
            }
        QVERIFY(count >= 7);
    }
    void badFileIsRejected()
    {
        QFETCH(QString, file);
        std::ifstream in(file.toStdString());
        std::string first;
        std::getline(in, first);
        static const std::regex kPattern(R"(^# expect: line (\d+): (.+)$)");
        std::smatch match;
        QVERIFY2(std::regex_match(first, match, kPattern), "first line must be `# expect: line N: fragment`");
        const int line = std::stoi(match[1].str());
        const std::string fragment = match[2].str();
        try {
            loadBlockFile(file.toStdString());
            QFAIL("the file was accepted");
        } catch (const InputError& e) {
            bool found = false;
            for (const auto& d : e.diagnostics())
                found = found || (d.line == line && d.message.find(fragment) != std::string::npos &&
                                  d.file == file.toStdString());
            QVERIFY2(found, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCgraBlockFile)
#include "test_cgra_block_file.moc"
