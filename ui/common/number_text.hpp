#pragma once
// How the workbench writes a model's numbers, in one place: counts (whole numbers as integers),
// averages of instances (an expected count, labelled as such against the count it is out of),
// percentages (never "nan %": a share of nothing has no percentage) and energies (pJ, and µJ once the
// pJ count gets long).
#include <QString>

namespace sparsemap::ui {

// "0", "49152", "1.23457e+10", "0.974401": whole numbers below 1e9 as integers, the rest with 6
// significant digits.
QString countText(double x);

// An average count: whole numbers as integers, the rest with 3 significant digits ("0.974").
QString averageText(double x);

// An expected number of instances in use (the model's average over the tiles, e.g. 0.974401 when a
// tile is empty 2.6 % of the time) against the instances there are: "0.974 of 1 (average)"; "4" when
// all of them are always in use.
QString instancesText(double average, double of);

// 100 x fraction with enough digits that a small share does not read as 0 ("12.5", "0.25", "0.0012");
// "–" for a fraction that is not a number (a share of a zero total).
QString percentText(double fraction);

// "part / whole (p %)" of a capacity: "0 / 0 (no capacity)" when whole is 0.
QString usedOfText(double part, double whole);

// "12.3 pJ" below 1e4 pJ, else "1.234 µJ (1234000 pJ)".
QString energyText(double pj);

} // namespace sparsemap::ui
