#include "chart_export.hpp"

#include <QApplication>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QLegend>
#include <QMenu>
#include <QMessageBox>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QValueAxis>

#include "common/legend_below.hpp"

#include <qcustomplot.h>

#include <cmath>
#include <functional>
#include <vector>

namespace sparsemap::ui {

namespace {

constexpr double kLogicalDpi = 96; // figure units: a 7 in figure is drawn 672 units wide
const char* const kTitleProperty = "sparsemapChartTitle";
const char* const kStemProperty = "sparsemapChartStem";

// Raises every font of a chart below a minimum while a figure is drawn, and puts them back after.
class FontFloor {
public:
    explicit FontFloor(double minPt) : m_minPt(minPt) {}
    ~FontFloor()
    {
        for (auto it = m_restore.rbegin(); it != m_restore.rend(); ++it)
            (*it)();
    }
    FontFloor(const FontFloor&) = delete;
    FontFloor& operator=(const FontFloor&) = delete;

    void apply(const QFont& font, const std::function<void(const QFont&)>& set)
    {
        double pt = font.pointSizeF();
        if (pt <= 0) // a pixel-sized font: in points at the figure's logical resolution
            pt = font.pixelSize() * 72.0 / kLogicalDpi;
        if (pt >= m_minPt)
            return;
        QFont raised = font;
        raised.setPointSizeF(m_minPt);
        set(raised);
        m_restore.push_back([set, font] { set(font); });
    }

    // Something else changed for the figure, put back with the fonts.
    void restoreLater(std::function<void()> undo) { m_restore.push_back(std::move(undo)); }

private:
    double m_minPt;
    std::vector<std::function<void()>> m_restore;
};

void raiseFonts(QCustomPlot* plot, FontFloor& floor)
{
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            floor.apply(axis->labelFont(), [axis](const QFont& f) { axis->setLabelFont(f); });
            floor.apply(axis->tickLabelFont(), [axis](const QFont& f) { axis->setTickLabelFont(f); });
        }
    const auto raiseLegend = [&floor](QCPLegend* legend) {
        floor.apply(legend->font(), [legend](const QFont& f) { legend->setFont(f); });
        // A legend laid out in columns has empty grid cells (item() is null there).
        for (int i = 0; i < legend->itemCount(); ++i) {
            QCPAbstractLegendItem* item = legend->item(i);
            if (!item)
                continue;
            floor.apply(item->font(), [item](const QFont& f) { item->setFont(f); });
        }
    };
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(element))
            floor.apply(text->font(), [text](const QFont& f) { text->setFont(f); });
        else if (auto* scale = qobject_cast<QCPColorScale*>(element)) {
            QCPAxis* axis = scale->axis();
            floor.apply(axis->labelFont(), [axis](const QFont& f) { axis->setLabelFont(f); });
            floor.apply(axis->tickLabelFont(), [axis](const QFont& f) { axis->setTickLabelFont(f); });
        } else if (auto* legend = qobject_cast<QCPLegend*>(element))
            raiseLegend(legend);
        else if (auto* rect = qobject_cast<QCPAxisRect*>(element))
            for (QCPLayoutElement* inset : rect->insetLayout()->elements(false))
                if (auto* insetLegend = qobject_cast<QCPLegend*>(inset))
                    raiseLegend(insetLegend);
    }
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
            floor.apply(text->font(), [text](const QFont& f) { text->setFont(f); });
}

// A legend entry wider than the figure (a long run name in a one-column figure) would be cut at its
// edge: its name is elided in the middle for the figure (both ends tell runs apart), then put back.
void elideLegendNames(QCustomPlot* plot, int width, FontFloor& floor)
{
    QCPLegend* legend = plot->legend;
    if (!legend || !legend->visible())
        return;
    const int room = width - legend->margins().left() - legend->margins().right() - 4;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (!item)
            continue;
        const int excess = static_cast<QCPLayoutElement*>(item)->minimumOuterSizeHint().width() - room;
        if (excess <= 0)
            continue;
        QCPAbstractPlottable* plottable = item->plottable();
        const QString name = plottable->name();
        const QFontMetrics metrics(item->font());
        plottable->setName(
            metrics.elidedText(name, Qt::ElideMiddle, std::max(0, metrics.horizontalAdvance(name) - excess)));
        floor.restoreLater([plottable, name] { plottable->setName(name); });
    }
}

void raiseFonts(QChart* chart, FontFloor& floor)
{
    floor.apply(chart->titleFont(), [chart](const QFont& f) { chart->setTitleFont(f); });
    QLegend* legend = chart->legend();
    floor.apply(legend->font(), [legend](const QFont& f) { legend->setFont(f); });
    for (QAbstractAxis* axis : chart->axes()) {
        floor.apply(axis->labelsFont(), [axis](const QFont& f) { axis->setLabelsFont(f); });
        floor.apply(axis->titleFont(), [axis](const QFont& f) { axis->setTitleFont(f); });
    }
}

// Draws the chart into `painter` over a figure of `size` logical units.
void drawChart(QWidget* chart, QCPPainter& painter, const QSize& size)
{
    if (auto* plot = qobject_cast<QCustomPlot*>(chart)) {
        // toPainter lays the plot out at the figure's size without a replot: a legend below the axes
        // takes the columns of the figure's width here (else the screen's, cut at the figure's edge).
        fitLegendBelow(plot, size.width());
        plot->toPainter(&painter, size.width(), size.height());
        return;
    }
    auto* view = qobject_cast<QChartView*>(chart);
    QChart* c = view->chart();
    const QSizeF oldSize = c->size();
    const QPointF oldPos = c->pos();
    c->setPos(0, 0);
    c->resize(size);
    painter.setRenderHint(QPainter::Antialiasing);
    view->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), QRectF(QPointF(0, 0), QSizeF(size)));
    c->resize(oldSize);
    c->setPos(oldPos);
}

QString writeAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("Cannot write %1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QString("Cannot write %1: %2 (an existing file is unchanged)").arg(path, file.errorString());
    return {};
}

} // namespace

std::optional<ChartFormat> chartFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == "png")
        return ChartFormat::Png;
    if (suffix == "svg")
        return ChartFormat::Svg;
    if (suffix == "pdf")
        return ChartFormat::Pdf;
    return std::nullopt;
}

QString chartFormatSuffix(ChartFormat format)
{
    switch (format) {
    case ChartFormat::Png:
        return "png";
    case ChartFormat::Svg:
        return "svg";
    case ChartFormat::Pdf:
        return "pdf";
    }
    return {};
}

QString saveChart(QWidget* chart, const QString& path, const FigureSize& size)
{
    const auto format = chartFormatForPath(path);
    if (!format)
        return QString("Cannot save %1: a chart is saved as .png, .svg or .pdf").arg(path);
    auto* plot = qobject_cast<QCustomPlot*>(chart);
    auto* view = qobject_cast<QChartView*>(chart);
    if (!plot && !(view && view->chart()))
        return QString("Cannot save %1: the widget is not a chart").arg(path);
    if (!(size.widthInches > 0 && size.heightInches > 0 && size.dpi > 0 && size.widthInches <= 100 &&
          size.heightInches <= 100 && size.dpi <= 2400))
        return QString("Cannot save %1: the figure size must be 0..100 in and 1..2400 dpi").arg(path);
    const QSize logical(int(std::lround(size.widthInches * kLogicalDpi)),
                        int(std::lround(size.heightInches * kLogicalDpi)));

    QByteArray bytes;
    {
        FontFloor floor(size.minFontPt);
        if (plot) {
            raiseFonts(plot, floor);
            elideLegendNames(plot, logical.width(), floor);
        } else
            raiseFonts(view->chart(), floor);

        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (*format == ChartFormat::Png) {
            const double scale = size.dpi / kLogicalDpi;
            QImage image(
                // Exactly the figure's inches at its dpi (the logical size is rounded to whole units).
                QSize(int(std::lround(size.widthInches * size.dpi)),
                      int(std::lround(size.heightInches * size.dpi))),
                QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            // Drawn at the logical resolution (fonts in points become units of 1/96 in), scaled up.
            image.setDotsPerMeterX(int(std::lround(kLogicalDpi / 0.0254)));
            image.setDotsPerMeterY(int(std::lround(kLogicalDpi / 0.0254)));
            {
                QCPPainter painter(&image);
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setRenderHint(QPainter::TextAntialiasing);
                if (scale > 1)
                    painter.setMode(QCPPainter::pmNonCosmetic); // lines as thick as on the figure
                painter.scale(scale, scale);
                drawChart(chart, painter, logical);
            }
            // Then labelled with the figure's dpi, so that it prints at its size in inches.
            image.setDotsPerMeterX(int(std::lround(size.dpi / 0.0254)));
            image.setDotsPerMeterY(int(std::lround(size.dpi / 0.0254)));
            if (!image.save(&buffer, "PNG"))
                return QString("Cannot save %1: the PNG encoder failed").arg(path);
        } else if (*format == ChartFormat::Svg) {
            QSvgGenerator svg;
            svg.setOutputDevice(&buffer);
            svg.setResolution(int(kLogicalDpi));
            svg.setSize(logical);
            svg.setViewBox(QRect(QPoint(0, 0), logical));
            svg.setTitle(chart->property(kTitleProperty).toString());
            svg.setDescription("SparseMap Workbench chart");
            QCPPainter painter(&svg);
            painter.setMode(QCPPainter::pmVectorized);
            drawChart(chart, painter, logical);
        } else {
            QPdfWriter pdf(&buffer);
            pdf.setCreator("SparseMap Workbench");
            pdf.setTitle(chart->property(kTitleProperty).toString());
            pdf.setResolution(int(kLogicalDpi));
            pdf.setPageLayout(
                QPageLayout(QPageSize(QSizeF(size.widthInches, size.heightInches), QPageSize::Inch),
                            QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
            QCPPainter painter(&pdf);
            painter.setMode(QCPPainter::pmVectorized);
            painter.setMode(QCPPainter::pmNoCaching);
            drawChart(chart, painter, logical);
        }
    }
    // The on-screen chart redraws with its own fonts and size.
    if (plot)
        plot->replot(QCustomPlot::rpQueuedReplot);
    if (bytes.isEmpty())
        return QString("Cannot save %1: nothing was drawn").arg(path);
    return writeAtomically(path, bytes);
}

void enableChartSaving(QWidget* chart, const QString& title, const QString& fileStem)
{
    chart->setProperty(kTitleProperty, title);
    chart->setProperty(kStemProperty, fileStem);
    chart->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(chart, &QWidget::customContextMenuRequested, chart, [chart](const QPoint& at) {
        QMenu menu(chart);
        for (const ChartFormat format : {ChartFormat::Png, ChartFormat::Svg, ChartFormat::Pdf})
            menu.addAction(QString("Save chart as %1...").arg(chartFormatSuffix(format).toUpper()), chart,
                           [chart, format] { saveChartWithDialog(chart, format); });
        menu.exec(chart->mapToGlobal(at));
    });
}

void addSaveChartActions(QMenu* menu, QWidget* root)
{
    menu->clear();
    for (QWidget* chart : root->findChildren<QWidget*>()) {
        const QString title = chart->property(kTitleProperty).toString();
        if (title.isEmpty() || !chart->isVisible())
            continue;
        menu->addAction(title + "...", chart, [chart] { saveChartWithDialog(chart, ChartFormat::Png); });
    }
    if (menu->isEmpty())
        menu->addAction("(no chart is shown)")->setEnabled(false);
}

void saveChartWithDialog(QWidget* chart, ChartFormat format)
{
    QSettings settings;
    QString folder = settings.value("charts/folder").toString();
    if (folder.isEmpty())
        folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString stem = chart->property(kStemProperty).toString();
    const QString filters = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)";
    QString selected = format == ChartFormat::Png   ? "PNG image (*.png)"
                       : format == ChartFormat::Svg ? "SVG drawing (*.svg)"
                                                    : "PDF document (*.pdf)";
    QString path = QFileDialog::getSaveFileName(chart->window(), "Save chart",
                                                folder + "/" + (stem.isEmpty() ? "chart" : stem) + "." +
                                                    chartFormatSuffix(format),
                                                filters, &selected);
    if (path.isEmpty())
        return;
    if (!chartFormatForPath(path)) // no suffix typed: the chosen file type's
        path += "." + QString(selected.contains("svg") ? "svg" : selected.contains("pdf") ? "pdf" : "png");
    settings.setValue("charts/folder", QFileInfo(path).absolutePath());
    const QString error = saveChart(chart, path);
    if (!error.isEmpty())
        QMessageBox::warning(chart->window(), "Save chart", error);
}

} // namespace sparsemap::ui
