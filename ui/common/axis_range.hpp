#pragma once
// The range of a chart's axis that shows all of every curve: from a little below its lowest value to a
// little above its highest, so that no curve lies on the axis frame (a best-so-far line ends at the
// run's best, the lowest value of the chart: at the frame it would be hidden by the axis line). Every
// chart that plots best-so-far values or a front fits its axes here, on screen and in saved figures.
//
// On a logarithmic axis the margin is taken in decades: kLogMarginShare of the data's span, at least
// log10(kMinLogFactor) (a factor of 1.5 below the lowest and above the highest value), so that a single
// value, equal values and a curve over twelve decades all get visible room. On a linear axis it is
// kLinearMarginShare of the span (of the value's size, or 1, when all values are equal).
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace sparsemap::ui {

inline constexpr double kLogMarginShare = 0.05;
inline constexpr double kMinLogFactor = 1.5;
inline constexpr double kLinearMarginShare = 0.05;

// [lo, hi] widened by the margin of the header; nullopt when the values cannot be shown (not finite, or
// not positive on a log axis).
inline std::optional<QCPRange> paddedAxisRange(double lo, double hi, bool logarithmic)
{
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi)
        return std::nullopt;
    if (logarithmic) {
        if (!(lo > 0))
            return std::nullopt;
        const double l = std::log10(lo), h = std::log10(hi);
        const double pad = std::max(kLogMarginShare * (h - l), std::log10(kMinLogFactor));
        return QCPRange(std::pow(10.0, l - pad), std::pow(10.0, h + pad));
    }
    const double span = hi - lo;
    const double pad = span > 0 ? kLinearMarginShare * span : std::max(0.1 * std::abs(lo), 1.0);
    return QCPRange(lo - pad, hi + pad);
}

// The lowest and highest value every visible plottable of `axis`'s plot draws along `axis` (its key or
// its value dimension), positive values only on a log axis; nullopt without any.
inline std::optional<QCPRange> plottedRange(QCPAxis* axis)
{
    const QCP::SignDomain domain =
        axis->scaleType() == QCPAxis::stLogarithmic ? QCP::sdPositive : QCP::sdBoth;
    std::optional<QCPRange> range;
    for (QCPAbstractPlottable* plottable : axis->plottables()) {
        if (!plottable->visible())
            continue;
        bool found = false;
        const QCPRange r = plottable->keyAxis() == axis ? plottable->getKeyRange(found, domain)
                                                        : plottable->getValueRange(found, domain);
        if (!found)
            continue;
        range = range ? QCPRange(std::min(range->lower, r.lower), std::max(range->upper, r.upper)) : r;
    }
    return range;
}

// Sets `axis` to every plotted value of its plot with the margin above; an axis with nothing plotted
// keeps its range. Returns whether the range was set.
inline bool fitAxisToPlotted(QCPAxis* axis)
{
    const auto data = plottedRange(axis);
    if (!data)
        return false;
    const auto padded =
        paddedAxisRange(data->lower, data->upper, axis->scaleType() == QCPAxis::stLogarithmic);
    if (!padded)
        return false;
    axis->setRange(*padded);
    return true;
}

} // namespace sparsemap::ui
