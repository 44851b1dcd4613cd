#pragma once
// Saving a chart as a figure for a paper: PNG, SVG or PDF of any of the workbench's charts (a
// QCustomPlot or a Qt Charts QChartView), drawn again at a publication size rather than grabbed from
// the screen. A figure is FigureSize::widthInches x heightInches; every text in it is at least
// FigureSize::minFontPt at that size (smaller fonts are raised while drawing, then restored); PNGs
// are FigureSize::dpi. SVG and PDF are vector output. Writes are atomic (QSaveFile): an error leaves
// an existing file untouched. The GUI's context menus and File > Save chart, and the headless
// `sparsemap-plot`, all save through saveChart().
#include <QString>

#include <optional>

class QMenu;
class QWidget;

namespace sparsemap::ui {

enum class ChartFormat { Png, Svg, Pdf };

struct FigureSize {
    double widthInches = 7.0; // a two-column figure; 3.5 for one column
    double heightInches = 4.3;
    int dpi = 300;          // PNG only
    double minFontPt = 9.0; // at the figure's printed size
};

// The format a file name asks for by its suffix (.png, .svg, .pdf; any case), or nullopt.
std::optional<ChartFormat> chartFormatForPath(const QString& path);
QString chartFormatSuffix(ChartFormat format); // "png", "svg", "pdf"

// Draws `chart` (a QCustomPlot or a QChartView) into `path` in the format of its suffix. Returns an
// empty string, or what went wrong (an unknown suffix, a widget that is no chart, an unwritable file).
QString saveChart(QWidget* chart, const QString& path, const FigureSize& size = {});

// Marks `chart` as saveable under `title` (e.g. "Convergence"): a context menu with Save as PNG /
// SVG / PDF, and an entry in File > Save chart (addSaveChartActions) while the chart is visible.
// `fileStem` proposes the file name ("convergence").
void enableChartSaving(QWidget* chart, const QString& title, const QString& fileStem);

// Fills `menu` with one entry per visible chart under `root` marked by enableChartSaving; each asks
// where to save (PNG, SVG or PDF by the file type chosen). Call from the menu's aboutToShow.
void addSaveChartActions(QMenu* menu, QWidget* root);

// Asks for a file (proposing the chart's stem and `format`) and saves; reports an error in a message box.
void saveChartWithDialog(QWidget* chart, ChartFormat format);

} // namespace sparsemap::ui
