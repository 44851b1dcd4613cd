// sparsemap-workbench [--demo] [--view NAME] [SESSION]: the GUI. --demo runs SparseMap on mm3 / cloud
// at start-up, for a quick look (and for screenshots); --view picks the view shown first; a session
// file given as argument is opened.
#include "exploration/exploration_view.hpp"
#include "workbench/main_window.hpp"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QTabWidget>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>

namespace {

// Shows each view in turn, lets it lay out and paint, and saves the window; then quits.
void saveScreenshots(sparsemap::ui::MainWindow& window, const QString& dir)
{
    QDir().mkpath(dir);
    auto* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QElapsedTimer settle;
        settle.start();
        while (settle.elapsed() < 600)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        const QString name = tabs->tabText(i).remove('&').toLower();
        const QString path = QDir(dir).filePath(name + ".png");
        if (!window.grab().save(path))
            fprintf(stderr, "sparsemap-workbench: cannot write %s\n", qPrintable(path));
    }
    window.setAutoAnswer(QMessageBox::Discard);
    QTimer::singleShot(0, &window, &QWidget::close);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName("SparseMap");
    QApplication::setApplicationName("SparseMap Workbench");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Co-design mappings and sparse strategies of sparse tensor accelerators.");
    parser.addHelpOption();
    const QCommandLineOption demo("demo", "Start a SparseMap search on mm3 / cloud at once.");
    parser.addOption(demo);
    const QCommandLineOption view(
        "view", "The view shown first: architecture, workload, exploration, design or compare.", "name");
    parser.addOption(view);
    const QCommandLineOption shots("screenshots",
                                   "With --demo: when the search ends, save a PNG of every view into DIR "
                                   "and quit (the README's pictures).",
                                   "dir");
    parser.addOption(shots);
    parser.addPositionalArgument("session", "A session file to open.", "[session]");
    parser.process(app);

    sparsemap::ui::MainWindow window;
    if (parser.isSet(view) && !window.showView(parser.value(view))) {
        fprintf(stderr, "sparsemap-workbench: unknown view '%s'\n", qPrintable(parser.value(view)));
        return 2;
    }
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openSession(parser.positionalArguments().first());
    if (parser.isSet(demo)) {
        auto* exploration = window.explorationView();
        exploration->setWorkloadPath(QStringLiteral(SPARSEMAP_SAMPLES_DIR "/workloads/mm3.yaml"));
        exploration->setPreset("cloud");
        exploration->setMethod("sparsemap");
        if (!parser.isSet(view))
            window.showView("exploration");
        QTimer::singleShot(0, exploration, &sparsemap::ui::ExplorationView::startSearch);
        if (parser.isSet(shots))
            QObject::connect(exploration, &sparsemap::ui::ExplorationView::searchFinished, &window,
                             [&window, dir = parser.value(shots)] { saveScreenshots(window, dir); });
    }
    return app.exec();
}
