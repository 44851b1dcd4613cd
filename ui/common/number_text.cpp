#include "common/number_text.hpp"

#include <cmath>

namespace sparsemap::ui {

QString countText(double x)
{
    if (x == 0)
        return "0";
    if (std::abs(x) < 1e9 && x == std::floor(x))
        return QString::number(qint64(x));
    return QString::number(x, 'g', 6);
}

QString averageText(double x)
{
    if (std::abs(x) < 1e9 && x == std::floor(x))
        return countText(x);
    return QString::number(x, 'g', 3);
}

QString instancesText(double average, double of)
{
    if (average == of || !(of > 0))
        return averageText(average);
    return QString("%1 of %2 (average)").arg(averageText(average), countText(of));
}

QString percentText(double fraction)
{
    if (!std::isfinite(fraction))
        return QString::fromUtf8("–");
    const double p = 100 * fraction;
    if (p >= 10 || p == 0)
        return QString::number(p, 'f', 1);
    return p >= 0.1 ? QString::number(p, 'f', 2) : QString::number(p, 'g', 2);
}

QString usedOfText(double part, double whole)
{
    const QString text = countText(part) + " / " + countText(whole);
    if (!(whole > 0))
        return text + " (no capacity)";
    return text + QString(" (%1 %)").arg(percentText(part / whole));
}

QString energyText(double pj)
{
    if (std::abs(pj) < 1e4)
        return QString("%1 pJ").arg(QString::number(pj, 'g', 6));
    return QString::fromUtf8("%1 µJ (%2 pJ)")
        .arg(QString::number(pj / 1e6, 'g', 6), QString::number(pj, 'g', 8));
}

} // namespace sparsemap::ui
