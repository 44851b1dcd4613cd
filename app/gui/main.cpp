// sparsemap-workbench [--demo [--workload F] [--arch P] [--budget N] [--screenshots DIR
// [--screenshot-size WxH]]] [--view NAME] [SESSION]: the GUI. --demo runs SparseMap at start-up, for a quick
// look (and for screenshots, at a fixed window size with --screenshot-size); --view picks the view shown
// first; a session file given as argument is opened.
#include "arch_editor/architecture_document.hpp"
#include "arch_editor/architecture_editor_panel.hpp"
#include "exploration/exploration_view.hpp"
#include "io/architecture_io.hpp"
#include "project/project_panel.hpp"
#include "cgra_view/cgra_view.hpp"
#include "design_view/design_view.hpp"
#include "workbench/main_window.hpp"
#include "workload_editor/workload_document.hpp"
#include "workload_editor/workload_editor_panel.hpp"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QSettings>
#include <QTabWidget>
#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <memory>

namespace {

// "WxH" (e.g. 1024x700) as a window size; an empty size for anything else.
QSize parseWindowSize(const QString& text)
{
    const auto match = QRegularExpression(QStringLiteral("^(\\d{3,4})x(\\d{3,4})$")).match(text.trimmed());
    if (!match.hasMatch())
        return {};
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    return size.width() >= 640 && size.height() >= 480 ? size : QSize();
}

// Shows each view in turn, lets it lay out and paint, and saves the window; then quits.
void saveScreenshots(sparsemap::ui::MainWindow& window, const QString& dir)
{
    QDir().mkpath(dir);
    // The first (SparseMap) run shown, and its best pinned for the Compare view.
    const auto& runs = window.project()->session().runs;
    if (!runs.empty() && runs[0].result.bestIndex >= 0) {
        // As if opened from the project panel: the run in the Exploration view, its best in the Design view.
        emit window.projectPanel()->activated(sparsemap::ui::ProjectStore::Group::Runs, 0);
        window.project()->pin(0, runs[0].result.bestIndex, "best of " + runs[0].name);
    }
    auto settle = [&window] {
        QElapsedTimer clock;
        clock.start();
        // (the Exploration view's maps are made on a worker thread)
        while (clock.elapsed() < 600 || window.explorationView()->isPreparingPlots())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    };
    const QSize size = window.size();
    auto save = [&window, &dir, size](const QString& name) {
        const QString path = QDir(dir).filePath(name + ".png");
        if (window.size() != size) // a view's minimum size widened the window
            fprintf(stderr, "sparsemap-workbench: %s is %dx%d, not %dx%d\n", qPrintable(path), window.width(),
                    window.height(), size.width(), size.height());
        if (!window.grab().save(path))
            fprintf(stderr, "sparsemap-workbench: cannot write %s\n", qPrintable(path));
    };
    auto* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        settle();
        const QString name = tabs->tabText(i).remove('&').toLower();
        if (tabs->currentWidget() == window.cgraView()) {
            // The paper's seven blocks (its Table 2 features) mapped on its 4 x 4 CGRA.
            auto* cgra = window.cgraView();
            cgra->setSource(sparsemap::ui::CgraView::Source::PaperBlocks);
            cgra->startMapping();
            while (cgra->isBusy())
                QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            cgra->selectRow(0);
            settle();
        }
        save(name);
        if (tabs->currentWidget() == window.designView()) {
            // The design's detail tabs too: breakdown chart, hardware behaviour.
            auto* details = window.designView()->detailTabs();
            for (int d = 1; d < details->count(); ++d) {
                details->setCurrentIndex(d);
                settle();
                save(name + "-" + details->tabText(d).toLower().replace(' ', '-'));
            }
            details->setCurrentIndex(0);
        }
    }
    window.setAutoAnswer(QMessageBox::Discard);
    QTimer::singleShot(0, &window, &QWidget::close);
}

} // namespace

int main(int argc, char** argv)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Co-design mappings and sparse strategies of sparse tensor accelerators.");
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption demo("demo", "Start a SparseMap search at once (mm3 on cloud unless given).");
    parser.addOption(demo);
    const QCommandLineOption demoWorkload("workload", "With --demo: the workload file searched.", "file",
                                          QStringLiteral(SPARSEMAP_SAMPLES_DIR "/workloads/mm3.yaml"));
    parser.addOption(demoWorkload);
    const QCommandLineOption demoArch("arch", "With --demo: the preset searched (edge, mobile, cloud).",
                                      "preset", "cloud");
    parser.addOption(demoArch);
    const QCommandLineOption demoBudget(
        "budget", "With --demo: the model evaluations of each search, 10 to 10000000 (default 20000).", "N");
    parser.addOption(demoBudget);
    const QCommandLineOption view(
        "view", "The view shown first: architecture, workload, exploration, design, compare or cgra.",
        "name");
    parser.addOption(view);
    const QCommandLineOption shots("screenshots",
                                   "With --demo: when the search ends, save a PNG of every view into DIR "
                                   "and quit (the README's pictures).",
                                   "dir");
    parser.addOption(shots);
    const QCommandLineOption shotSize("screenshot-size",
                                      "With --screenshots: the window's size in the pictures, WxH (e.g. "
                                      "1024x700; at least 640x480). Default: the default window.",
                                      "size");
    parser.addOption(shotSize);
    parser.addPositionalArgument("session", "A session file to open.", "[session]");

    // --help needs no display: answered before the GUI connects to one. (Arguments of Qt's own, such
    // as -platform, fail this parse; QApplication takes them out, and the full parse below follows.)
    {
        QStringList arguments;
        for (int i = 0; i < argc; ++i)
            arguments << QString::fromLocal8Bit(argv[i]);
        if (parser.parse(arguments) && parser.isSet(help)) {
            QCoreApplication core(argc, argv);
            QCoreApplication::setApplicationName("SparseMap Workbench");
            parser.showHelp(0); // exits
        }
    }

    QApplication app(argc, argv);
    QApplication::setOrganizationName("SparseMap");
    QApplication::setApplicationName("SparseMap Workbench");
    parser.process(app);

    QSize pictureSize;
    if (parser.isSet(shotSize)) {
        pictureSize = parseWindowSize(parser.value(shotSize));
        if (!parser.isSet(shots) || !pictureSize.isValid()) {
            fprintf(stderr,
                    "sparsemap-workbench: --screenshot-size goes with --screenshots and takes WxH, "
                    "at least 640x480 (e.g. 1024x700), not '%s'\n",
                    qPrintable(parser.value(shotSize)));
            return 2;
        }
    }
    if (parser.isSet(shots)) {
        // Pictures of the default layout, not of this user's remembered window: a settings scope of
        // their own, emptied first.
        QApplication::setApplicationName("SparseMap Workbench screenshots");
        QSettings().clear();
    }
    int demoBudgetValue = 0; // --budget, parsed once below; 0 = not given
    if (parser.isSet(demo)) {
        const auto presets = sparsemap::presetNames();
        if (std::find(presets.begin(), presets.end(), parser.value(demoArch).toStdString()) ==
            presets.end()) {
            fprintf(stderr, "sparsemap-workbench: --arch must be edge, mobile or cloud, not '%s'\n",
                    qPrintable(parser.value(demoArch)));
            return 2;
        }
        if (parser.isSet(demoBudget)) {
            bool ok = false;
            const qlonglong budget = parser.value(demoBudget).toLongLong(&ok);
            if (ok && budget >= 10 && budget <= 10'000'000)
                demoBudgetValue = static_cast<int>(budget);
            else {
                fprintf(stderr,
                        "sparsemap-workbench: --budget takes a whole number from 10 to 10000000, not '%s'\n",
                        qPrintable(parser.value(demoBudget)));
                return 2;
            }
        }
        if (!QFileInfo::exists(parser.value(demoWorkload))) {
            fprintf(stderr, "sparsemap-workbench: no workload file '%s'\n",
                    qPrintable(parser.value(demoWorkload)));
            return 2;
        }
    }
    sparsemap::ui::MainWindow window;
    if (parser.isSet(view) && !window.showView(parser.value(view))) {
        fprintf(stderr, "sparsemap-workbench: unknown view '%s'\n", qPrintable(parser.value(view)));
        return 2;
    }
    window.show();
    if (pictureSize.isValid()) {
        window.resize(pictureSize);
        QCoreApplication::processEvents();
        if (window.size() != pictureSize) {
            fprintf(stderr, "sparsemap-workbench: the window cannot be %dx%d: its smallest size is %dx%d\n",
                    pictureSize.width(), pictureSize.height(), window.minimumSizeHint().width(),
                    window.minimumSizeHint().height());
            return 1;
        }
    }
    if (!parser.positionalArguments().isEmpty())
        window.openSession(parser.positionalArguments().first());
    if (parser.isSet(demo)) {
        // The workload and preset go into their editors, and the Exploration view follows them.
        auto* exploration = window.explorationView();
        const QString loaded = window.workloadEditor()->document()->loadFile(parser.value(demoWorkload));
        if (!loaded.isEmpty())
            exploration->setWorkloadPath(parser.value(demoWorkload)); // not editable: searched from its file
        window.architectureEditor()->document()->loadPreset(parser.value(demoArch));
        exploration->setMethod("sparsemap");
        if (demoBudgetValue > 0)
            exploration->setBudget(demoBudgetValue);
        if (!parser.isSet(view))
            window.showView("exploration");
        QTimer::singleShot(0, exploration, &sparsemap::ui::ExplorationView::startSearch);
        if (parser.isSet(shots)) {
            // Two more methods, so that the Compare view has something to compare, then the pictures.
            auto queue = std::make_shared<QStringList>(QStringList{"sa", "random"});
            QObject::connect(
                exploration, &sparsemap::ui::ExplorationView::searchFinished, &window,
                [&window, exploration, queue, dir = parser.value(shots)] {
                    if (queue->isEmpty()) {
                        QTimer::singleShot(0, &window, [&window, dir] { saveScreenshots(window, dir); });
                        return;
                    }
                    exploration->setMethod(queue->takeFirst());
                    QTimer::singleShot(0, exploration, &sparsemap::ui::ExplorationView::startSearch);
                });
        }
    }
    return app.exec();
}
