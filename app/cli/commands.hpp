#pragma once
#include <QStringList>

namespace sparsemap::cli {

// Each takes the arguments from the subcommand's name on and returns the process exit code.
int runInfo(const QStringList& args);
int runDecode(const QStringList& args);
int runRandom(const QStringList& args);
int runEvaluate(const QStringList& args);
int runValidate(const QStringList& args);
int runSearch(const QStringList& args);
int runSweep(const QStringList& args);
int runCgra(const QStringList& args);
int runPlot(const QStringList& args); // runs sparsemap-plot (app/plot)
int runExport(const QStringList& args);
int runOracleCorpus(const QStringList& args);
int runOptimum(const QStringList& args);

} // namespace sparsemap::cli
