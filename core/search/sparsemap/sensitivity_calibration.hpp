#pragma once
// Monte-Carlo high-sensitivity gene calibration (paper IV-D, Eq. 2-5), on any integer genome and
// any objective (lower is better, +infinity = invalid), so that it can be tested on a synthetic one.
//
// For each of I trials a random VALID base individual is found by random sampling (these samples
// count in the budget like any other). One base serves every gene of its trial, so a trial costs
// genes x samplesPerGene evaluations rather than genes x (search + samples). For each gene v,
// samplesPerGene distinct other values of v are evaluated with every other gene fixed to the base;
// invalid ones are dropped; S_i(v) is the mean over ALL pairs of the remaining values (the base
// included, its objective already known) of
//     |f(v1) - f(v2)| / (|v1 - v2| * min(f(v1), f(v2)))   (absolute difference if min <= 0),
// which is the expectation of the paper's "random valid pairs" without its sampling noise; a trial
// with fewer than two valid values contributes S_i(v) = 0 (Eq. 2 has no pair to sum). S(v) is the
// mean over the trials that found a base (Eq. 3). High-sensitivity genes: S(v) > S_min +
// thresholdFraction * (S_max - S_min) (Eq. 4; 3/4 in the paper) - none when every S is equal.
// Every valid individual met on the way is kept: its low-sensitivity genes are a valid combination
// for the hypercube initialization.
#include "search/es/genetic_operators.hpp"

#include <cstdint>
#include <functional>

namespace sparsemap::search {

struct CalibrationParameters {
    int trials = 3;                  // I of Eq. 3
    int samplesPerGene = 4;          // new values of v per trial (the base value is one more)
    int maxBaseSamples = 300;        // random individuals tried, in all, to find the I valid bases
    double thresholdFraction = 0.75; // Eq. 4
    Admissible admissible;           // random bases must satisfy it (drawn again for free); empty = any
};

// Throws std::invalid_argument naming the first bad parameter.
void validate(const CalibrationParameters& parameters);

struct CalibrationResult {
    std::vector<double> sensitivity; // S(v) per gene (0 when no trial ran)
    std::vector<bool> high;          // Eq. 4
    double threshold = 0;
    int trials = 0;   // trials completed (each with a valid base)
    Population valid; // every valid individual evaluated, in evaluation order
    std::int64_t evaluations = 0;
    bool exhausted = false; // the objective's budget ran out
};

CalibrationResult calibrateSensitivity(std::span<const GeneRange> ranges, const BatchObjective& objective,
                                       const CalibrationParameters& parameters, std::mt19937_64& rng);

// Eq. 4: which sensitivities exceed min + fraction * (max - min); `threshold` receives that value.
std::vector<bool> highSensitivityGenes(std::span<const double> sensitivity, double fraction,
                                       double* threshold = nullptr);

// Eq. 2 for one trial of one gene: the mean pair ratio over (value, objective) samples; invalid
// (non-finite) samples are ignored; 0 when fewer than two valid values.
double pairSensitivity(std::span<const int> values, std::span<const double> objectives);

} // namespace sparsemap::search
