// sparsemap-workbench [--demo] [--view NAME] [SESSION]: the GUI. --demo runs SparseMap on mm3 / cloud
// at start-up, for a quick look (and for screenshots); --view picks the view shown first; a session
// file given as argument is opened.
#include "exploration/exploration_view.hpp"
#include "workbench/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

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
    }
    return app.exec();
}
