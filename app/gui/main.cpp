// sparsemap-workbench [--demo] [--view architecture|exploration]: the GUI. --demo runs SparseMap on
// mm3 / cloud at start-up, for a quick look (and for screenshots); --view picks the tab shown first.
#include "exploration/exploration_view.hpp"
#include "main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("SparseMap Workbench");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Co-design mappings and sparse strategies of sparse tensor accelerators.");
    parser.addHelpOption();
    const QCommandLineOption demo("demo", "Start a SparseMap search on mm3 / cloud at once.");
    parser.addOption(demo);
    const QCommandLineOption view("view", "The tab shown first: architecture or exploration (default).",
                                  "name", "exploration");
    parser.addOption(view);
    parser.process(app);

    MainWindow window;
    window.showView(parser.value(view));
    window.show();
    if (parser.isSet(demo)) {
        auto* view = window.explorationView();
        view->setWorkloadPath(QStringLiteral(SPARSEMAP_SAMPLES_DIR "/workloads/mm3.yaml"));
        view->setPreset("cloud");
        view->setMethod("sparsemap");
        QTimer::singleShot(0, view, &sparsemap::ui::ExplorationView::startSearch);
    }
    return app.exec();
}
