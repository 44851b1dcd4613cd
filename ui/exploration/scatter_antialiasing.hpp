#pragma once
// How the maps paint a frame's dots (dot_thinning.hpp decides which dots).
#include <qcustomplot.h>

#include <cstddef>

namespace sparsemap::ui {

// Thinned dots (a large run: `drawn` of `total`) are drawn without antialiasing: half the painting
// time, the same map. On the GUI thread, when a plot takes a new frame.
inline void antialiasScattersUnlessThinned(QCustomPlot& plot, std::size_t drawn, std::size_t total)
{
    plot.setNotAntialiasedElements(drawn < total ? QCP::aeScatters : QCP::aeNone);
}

} // namespace sparsemap::ui
