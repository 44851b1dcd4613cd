#pragma once
// The reference corpora beside the repository (../shared/reference/...): Sparseloop's inputs and
// outputs that tests compare the model with. Locally a test whose corpus is missing is skipped with
// a message; with CI=true (the test command on CI) a missing corpus fails the test, so that a CI
// machine without ../shared cannot pass by skipping.
#include <QDir>
#include <QString>
#include <QtGlobal>

namespace reference_corpus {

inline bool required()
{
    return qEnvironmentVariable("CI").compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

// `relative` below ../shared/reference, e.g. "sparseloop" or "sparseloop-exercises".
inline QString path(const char* relative)
{
    return QDir::cleanPath(QStringLiteral(SPARSEMAP_SOURCE_DIR "/../shared/reference/") +
                           QLatin1String(relative));
}

} // namespace reference_corpus

// Skips (locally) or fails (CI=true) the current test function because the corpus `what` is missing.
#define SPARSEMAP_REFERENCE_MISSING(what)                                                                    \
    do {                                                                                                     \
        if (::reference_corpus::required())                                                    \
            QFAIL(qPrintable(                                                                                \
                QStringLiteral("%1 is missing and CI=true: the reference corpus is required").arg(what)));   \
        QSKIP(qPrintable(QStringLiteral("%1 is missing (set CI=true to make this a failure)").arg(what)));   \
    } while (false)
