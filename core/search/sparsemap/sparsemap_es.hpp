#pragma once
// SparseMap's evolution strategy (paper IV-D, IV-E, IV-H; SPEC 6.1) as an Optimizer:
//   0. calibration: Monte-Carlo high-sensitivity gene calibration (Eq. 2-5);
//   1. initialization: high-sensitivity hypercube initialization (HSHI) -> generation 0;
//   2. per generation (the shared (mu + lambda) loop, es/evolution_loop): pairs of parents from the
//      best members, crossover, mutation, evaluation, elitist survival (offspring join the
//      population, the best populationSize stay; dead = last).
// Every evaluation counts in the budget, calibration and initialization included. G is the number
// of generations the budget left after initialization allows: ceil(remaining / offspring).
//
// Two variants (issue 13). `sparsemap-paper` (sparseMapPaperParameters) is the published ES:
// sensitivity-aware crossover and annealing mutation (Eq. 6-7, P_h annealed over G generations) on
// genomes as bred, a (100 + 100) population. `sparsemap`, the product's default, changes what
// measurably did not earn its keep (the paper's operators hardly recombine and spend most early
// mutations on one or two genes; a converged population re-evaluates designs it has seen under other
// genomes; calibration and HSHI spend ~800 evaluations on a start that spatial-first random draws
// beat):
//   - generation 0 from feasibility-first random draws (no calibration, no HSHI), and every fresh draw
//     (generation 0, restarts) draws each spatial level's unrolling afresh: a few dims fill the level's
//     fan-out or a log-uniform part of it (DesignMoves::drawSpatialUnrolling), and survival keeps at
//     most 3 members per unrolling; every other segment (after restart 1, 3, ...) is confined to one
//     dim at the innermost spatial level (its draws fill the MACs with one dim, its children unroll
//     one dim there at most, its polish descends within the confinement first);
//   - every bred genome is made canonical and the run never evaluates a canonical genome twice;
//   - block crossover (whole per-dimension tilings, per-tensor formats, per-level orders, S/G genes)
//     and design steps (a prime factor to another level, two adjacent non-unit loops swapped, a format
//     or S/G value) on a uniformly drawn gene;
//   - a (50 + 50) population, a local polish of the best after 3 generations without progress (first
//     improvement over single moves and moves of blocks of equal prime factors, then the orders of the
//     unit loops a storage level binds its ranks to, then exchanges of two prime factors' levels, then
//     one-for-two exchanges of a dim's factors at a spatial level, then pairs of format genes, then
//     exchanges of blocks of equal factors between two dims, then factor moves that place a new loop
//     elsewhere in its level's order, then repairs of invalid mapping moves by uncompressing a tensor),
//     and an independent restart (keeping nothing) after 20, or as soon as the segment's polished best
//     is more than 10 % above the run's best;
//   - an end game: when the budget left is shorter than a mean restart, kicks of the run's best, each
//     polished (iterated local search), instead of a restart that could not end its descent; from
//     the end game (or the final follow-ups) on, two more polish tiers, and the segments' local optima
//     polished again with them;
//   - follow-ups of the best local optimum near the end of the budget: its near-miss mapping moves
//     (slightly worse or invalid) with the sparse strategy of the ranks they change re-chosen;
//   - a bred child whose spatial fan-out cannot fit is never evaluated (the draws' pre-check).
// Each change is a parameter, and an ablation method in the registry; the measurements are in
// docs/results/search-quality.md.
//
// Defaults of the paper's parts - the paper fixes I (not its value), the 3/4 threshold, 100 hypercubes
// x 20 samples and Eq. 6; the rest is ours, chosen so calibration + initialization stay well under 10% of a
// 20,000 budget (measured: ~730 evaluations on conv4 / cloud, ~950-1,300 on mm3 / cloud):
// - calibrationTrials I = 3, samplesPerGene = 4: 3 x genes x 4 evaluations (~400 on mm3's 32 genes,
//   ~560 on conv4's 47) plus the base search; three bases average out most of the base-dependence
//   of Eq. 2, and four new values + the base give 10 pairs per gene and trial.
// - maxCalibrationShare = 0.1: on small budgets samplesPerGene, then trials, are lowered (to 1)
//   until the plan fits 10% of the budget, so a 5,000 run still keeps ~90% for the ES.
// - maxBaseSamples = 300: a base is found in ~6 samples at 17% valid (mm3/cloud), ~55 at 1.8%
//   (mm3/edge); beyond 300 the space is too hostile to calibrate and the trials are skipped.
// - paper variant: population 100 (= the paper's 100 hypercubes), 100 offspring per generation (a
//   (100 + 100) ES: ~190 generations in 20,000), parents = the best 50 (truncation: "high-fitness
//   parents"); the product halves all three (more generations for the polish and restarts to act on).
// - crossoverProbability 1.0 (the paper crosses every pair), mutationProbability 0.9 per offspring:
//   SAC alone often reproduces a parent (its few cut points leave long blocks), so nearly every
//   offspring also gets one annealing mutation to avoid spending evaluations on known points.
// - neighbourStepShare 0.5: a mutated permutation gene steps +-1 (Cantor locality: a change of the
//   inner loops) half of the time, else takes a uniform new value (the outer loops must move too).
//   Every other gene (tiling level, format, S/G: categorical) takes a uniform new value.
// - calibratedLowGenesShare 0.5: HSHI samples take their low-sensitivity genes from a valid
//   calibration individual half of the time (validity), else uniformly (diversity: the calibration
//   has only I bases, and its valid individuals differ from them in one gene).
// - rejectDuplicates: an offspring equal to an individual already evaluated (the model is
//   deterministic: a wasted evaluation) is mutated again, up to 10 times. Without it a converged
//   (mu + lambda) population spends a third of the budget on repeats (measured on mm3 / cloud: 66%
//   distinct points). The standard ES of the ablations does the same, so the comparison is fair.
#include "search/es/permutation_encoding.hpp"
#include "search/optimizer.hpp"
#include "search/sparsemap/design_moves.hpp"
#include "search/sparsemap/hypercube_initialization.hpp"
#include "search/sparsemap/sensitivity_calibration.hpp"

namespace sparsemap::search {

// How SparseMap ES breeds (issue 13). The paper's operators, or the design-aware ones of DesignMoves.
enum class EsCrossover { SensitivityAware, Blocks };
enum class EsMutationGene { Annealing, Uniform }; // which gene a mutation moves
enum class EsMutationStep { Paper, Design };      // how: Cantor +-1 / reset, or DesignMoves::step
enum class EsInitialization { Hypercube, Random };
// Where the end game's neighbour kicks come from (SparseMapEsParameters::endgameKickPool).
enum class EndgameKickPool {
    Resplits,       // the spatial re-splits of the run's best (DesignMoves::spatialResplitNeighbours)
    UnrollingMoves, // every polish move of the run's best that changes its spatial unrolling
};

struct SparseMapEsParameters {
    // Calibration (Eq. 2-5).
    int calibrationTrials = 3;
    int samplesPerGene = 4;
    int maxBaseSamples = 300;
    double maxCalibrationShare = 0.1;
    double thresholdFraction = 0.75;
    // HSHI.
    int hypercubes = 100;
    int samplesPerHypercube = 20;
    double calibratedLowGenesShare = 0.5;
    // A hypercube whose draws of one round found no sample passing the pre-filter is given up for the
    // later rounds (HypercubeParameters::dropInadmissibleCells), which would draw the same way and
    // spend an evaluation each on an inadmissible sample. Faster (mm3 / cloud, 2 threads: 0.17-0.23 ->
    // 0.17-0.18 s) but a worse search on 84 cells x 5 seeds (1.056 against 1.044, session 20,
    // docs/results/search-quality.md): off; variant `sparsemap-drop-inadmissible-cells`.
    bool dropInadmissibleCells = false;
    // Evolution.
    // The product's (50 + 50) ES; the paper's variant keeps (100 + 100) with the best 50 as parents.
    int populationSize = 50;
    int offspringPerGeneration = 50;
    int parentCount = 25;
    double crossoverProbability = 1.0;
    double mutationProbability = 0.9;
    double initialHighMutation = 0.8; // P_h(0) of Eq. 6
    double neighbourStepShare = 0.5;
    PermutationEncoding permutationEncoding = PermutationEncoding::Cantor;
    bool rejectDuplicates = true;
    // Random draws (calibration bases, hypercube samples, restarts) skip genomes whose spatial
    // fan-out cannot fit the architecture, without spending an evaluation: the pre-check the
    // Mapper baseline applies too. Without it, on the edge preset (one MAC per PE) a random genome
    // of a large workload is almost never valid and the ES can end a run with nothing valid.
    bool prefilterFanout = true;
    // The same pre-check for bred offspring (with prefilterFanout): a child whose spatial fan-out cannot
    // fit is mutated again like a duplicate, then replaced by a fresh draw, never evaluated. Without it
    // ~15 % of a 20,000 budget went to such children (conv4 / mobile: 2,959 of 20,000 evaluations, all
    // invalid by fan-out). Off in the published ES.
    bool prefilterOffspring = true;
    // In Sparseloop's format space (dead formats), every new individual -- random draw or offspring --
    // has its format genes reordered so that each tensor's uncompressed ranks lie above its
    // compressed ones (orderFormatGenesForSparseloop): a Lamarckian repair, written back into the
    // genome. Without it a random format sequence over 5-8 ranks is almost never representable and
    // the ES can end a large edge workload with nothing valid (measured in docs/results/README.md).
    bool repairFormats = true;
    // Timeloop's pre-evaluation capacity check (model::dataFitsCapacity) before every evaluation: a
    // genome whose tiles' data alone (dense tiles, or the maximum occupancy of those kept with metadata)
    // overflows a buffer is invalid (+inf, as the model would score it) without costing an evaluation.
    // Edge runs evaluated ~25 % such genomes. At most the budget's worth of genomes are ruled out so,
    // then every genome is evaluated (a run ends whatever it breeds). Off in the published ES.
    bool capacityPrecheck = true;
    // With the capacity pre-check: a genome whose design the model finds malformed before any cost
    // (EvaluationResult::malformed: a Skip none of whose leaders has metadata where it reads them, an
    // offset pair as a tile's innermost rank, more ranks than a format holds) is ruled out like one that
    // overflows a buffer: +inf, not logged, no evaluation spent, within the same cap. Such designs
    // took 6-10 % of a run's evaluations and ~20 % of its end game's (polish moves of a format or an
    // S/G gene; session 51, docs/results/search-quality.md). Off in the published ES (with the
    // pre-check); variant `sparsemap-charge-malformed`.
    bool freeMalformed = true;
    // With the capacity pre-check: a genome whose tiles fit by their data (the pre-check) but overflow a
    // buffer once their metadata is counted (EvaluationResult::overflows, seen after the sparse analysis,
    // before any cost) is ruled out so too: +inf, not logged, no evaluation spent, within the same cap.
    // Such designs took 11-15 % of an edge or mobile run's evaluations (session 53). Timeloop's mapper
    // counts no invalid mapping towards its search size (mapper-thread.cpp: valid mappings only; invalid
    // ones end a search through its timeout). Off in the published ES; variant `sparsemap-charge-overflow`.
    bool freeOverflowing = true;

    // What issue 13 changed (the defaults are the product's `sparsemap`; sparseMapPaperParameters()
    // turns every one off: the published ES, `sparsemap-paper`). Each is switchable and measured in
    // docs/results/search-quality.md.
    // Calibration (Eq. 2-5) and HSHI; without calibration nothing is sensitivity-classed, so the
    // crossover must be Blocks and the mutation gene Uniform. Off in `sparsemap` since session 26:
    // with spatial-first draws a random generation 0 (feasibility first: randomInitialization) does
    // better (84 cells x 20 seeds: 1.041 against 1.050; ablation `sparsemap-hshi`).
    bool calibrate = false;
    EsInitialization initialization = EsInitialization::Random;
    EsCrossover crossover = EsCrossover::Blocks;
    // With block crossover: this share of the crossed children takes each gene from either parent
    // (uniformCrossover), mixing prime factors within a dimension's tiling and loop orders within a
    // level, as GA and es-pfce do. Session 17 adopted 0.3 (84 cells x 5 seeds: geometric mean 1.061
    // against 1.066 with blocks only); with the end game and exchanges before pairs of session 18, blocks
    // only is the better search (84 x 5, session 19: 1.044 against 1.059, 346 against 336 runs within
    // 5 %, better on seeds 1-3 and 4-5 alike; docs/results/search-quality.md). Ablation
    // `sparsemap-uniform-crossover` (0.3).
    double uniformCrossoverShare = 0;
    EsMutationGene mutationGene = EsMutationGene::Uniform;
    EsMutationStep mutationStep = EsMutationStep::Design;
    // With design steps: after the first step, one more with this probability, again and again (a
    // geometric number of steps, mean 1 / (1 - share)), for compound moves (a factor moved with its
    // tensor's formats changed). Measured no better at 0.5 than at 0 (docs/results/search-quality.md).
    double extraStepShare = 0;
    // Every bred or drawn genome is replaced by its canonical genome (canonicalGenome: loops whose place
    // does not matter outermost, equal prime factors outer first, unused format genes U) and the run never
    // evaluates a canonical genome twice: a duplicate is mutated again, else replaced by a fresh draw, else
    // dropped. Only with the Cantor encoding (the random-code ablation's genes are not Cantor codes).
    bool canonicalize = true;
    // Fresh draws (while nothing valid is known, restarts, the random initialization): half of them
    // keep each prime factor at the outermost mapping level with this probability - feasibility
    // first: on a large workload and small buffers (mm13 on edge) uniform draws are almost never
    // valid and a run could end with nothing. 0 = uniform draws only (the paper's).
    double outerTilingShare = 0.5;
    // The share of fresh draws whose spatial unrolling is then drawn level by level
    // (DesignMoves::drawSpatialUnrolling: a few dims fill each spatial level up to its fan-out, or a
    // log-uniform part of it). Uniform draws almost never unroll a dim to the array's width; the
    // spatial unrolling decides which basin a segment ends in (cloud mm7: with the best-known
    // design's unrolling held fixed, every seed ends within 0.3 % of it; drawn uniformly, none of 20).
    // 0 = uniform draws only (the paper's).
    double spatialDrawShare = 1.0;
    // In those spatial draws, the share of spatial levels that one dim alone fills (or partly fills);
    // the others draw how many dims share the level uniformly (DesignMoves::drawSpatialUnrolling). The
    // best designs found unroll one dim alone more often than a uniform count (1 in 3 on SpMM, 1 in 7 on
    // SpConv) draws it: the PE's MACs in 15 of the 30 mobile and cloud SpMM cells and 12 of the 26 SpConv
    // cells (session 28). Without the unrolling niches below, one dim at every level is the better
    // search (84 cells x 20 seeds: 1,063 against 1,015 runs within 1 %); with them, it is not (1,083
    // against 1,121; docs/results/search-quality.md). 0 in the default; variant
    // `sparsemap-one-dim-draws` (1).
    double spatialOneDimShare = 0;
    // Segments confined to one dim at the innermost spatial level: every this-many-th segment (the
    // segments after restart 1, 3, 5, ... with 2) draws its fresh genomes with that level filled by one
    // dim (DesignMoves::drawSpatialUnrolling's innerOneDimFit) and breeds only children whose innermost
    // spatial level unrolls one dim at most (DesignMoves::innerSpatialOneDim; the others are
    // inadmissible, like a fan-out overflow, and cost no evaluation); its polish, see confinedPolish. An
    // unconfined segment seldom ends in such a basin even where it is the best: on mobile mm7 the
    // best-known design unrolls K 64 alone at the MACs, yet with such draws common the segments settle
    // on K 32 x M 2, whose designs look better before their polish. 84 cells x seeds 1-20, unconfined
    // polish: every third segment, 1,203 -> 1,223 runs within 1 % and the geometric mean without edge
    // mm5 1.022 -> 1.018; every other segment, 1,202 and 1.017 (SpConv cells lose an unconfined
    // segment; session 35). With confinedPolish every other segment is the better: 1,234 against 1,223
    // (every third, confined polish: 1,214) and 1.014 against 1.018 (session 36);
    // docs/results/search-quality.md. 0 = no confined segments.
    int innerOneDimSegments = 2;
    // The polish in a confined segment descends first among the designs with one dim at the innermost
    // spatial level (the moves that put a second dim there are left out), then on from that local
    // optimum unconfined. Unconfined from the start, it walks out of the family (mobile mm7, mobile
    // conv8, cloud mm11: in each run traced the confined segment's polished best had two dims or more
    // at the MACs), so the family is bred but never polished: mobile mm11 and cloud mm11, whose
    // best-known designs unroll K alone at the MACs (and K 8 at the PEs), ended 13-16 % above it in every
    // run of seeds 1-20; with it, in 24 of those 40 runs within 1 %. 84 cells x seeds 1-20, every other
    // segment confined: 1,234 runs within 1 % (unconfined polish, session 35: 1,202), 1,534 within 5 %
    // (1,515), the geometric mean without edge mm5 1.014 (1.017); docs/results/search-quality.md,
    // session 36. The end game and the follow-ups are not confined. False: the polish is never confined.
    bool confinedPolish = true;
    // Local polish of the elite: after this many generations without a new best, the best member is
    // improved by descent over its single moves (DesignMoves::neighbours; first improvement by batches,
    // polishBatch) and, where none improves, the tiers below, until nothing improves it; each local
    // optimum is polished once. 0 = never.
    int polishAfterStagnation = 3;
    // Restart: after this many generations without a new best (polish included), the population is
    // drawn afresh, keeping its best `restartElite` members. 0 = never.
    // The default keeps none: each restart is an independent descent (bred, polished) and the run's
    // best stays in the search context. Kept, the best outbred the fresh draws (7-100x worse) within
    // 20 generations and the restarts ended where they began (~70 % of a 20k budget on conv4 / mobile);
    // measured in docs/results/search-quality.md (`sparsemap-restart-keep-best` keeps 1).
    int restartAfterStagnation = 20;
    int restartElite = 0;
    // Early restart: once the segment's best is a polished local optimum more than this share above the
    // run's best, the restart comes at once instead of after the rest of the restart window. Most
    // misses on SpMM are a lottery over basins (mobile mm6: a run's 3-4 segments end 1.01-3.5x
    // best-known by the MACs' unrolling); the window's ~1,000 evaluations rarely lift such a segment
    // past the run's best and buy a further draw instead. 84 cells x seeds 1-20 (session 33): 1,203
    // against 1,186 runs within 1 % (+0, +5, +2, +10 by block of 5 seeds; SpMM 567 against 550), 1,487
    // against 1,474 within 5 %, geometric mean without edge mm5 1.022 against 1.023
    // (docs/results/search-quality.md). Margins of 0.05 and 0.2 do worse on the same seeds (1,192 and
    // 1,189; SpMM 554 and 551 against 567; session 34). 0 = off; ablation `sparsemap-no-early-restarts`.
    double restartMargin = 0.1;
    // The end game (iterated local search): when a restart is due and the budget left is less than
    // `endgameSegments` x the mean length of the run's segments so far (from the end of initialization
    // to the first restart, then from restart to restart, the one ending now included), the rest of the
    // budget goes to kicks of the run's best instead - neighbour kicks (below) or 2..endgameKickSteps
    // random design steps (DesignMoves::stepAny) away from it, then polished; a better local optimum
    // becomes the centre of the next kicks. A last restart that short seldom ends its descent (with
    // prints on six cells x seeds 1-3: never the run's best). 0 = restarts to the end. Two mean segments
    // (session 47) for the neighbour kicks of endgameKickPool; without those, two segments measured level
    // with one in sessions 40 and 41, and in session 47 2,159 against 2,133 runs within 1 % (84 cells x
    // seeds 1-30) with a worse geometric mean (1.0085 against 1.0078).
    int endgameKickSteps = 4;
    double endgameSegments = 2;
    // The share of the end game's kicks that are neighbour kicks: with this probability a kick is a
    // neighbour of the run's best from endgameKickPool, drawn uniformly among those not kicked from
    // before - evaluated, or taken at its recorded objective when the polish evaluated it already - and
    // polished; random steps otherwise, and once none is left. 0 = off; ablation
    // `sparsemap-no-resplit-kicks` (random steps only).
    // - Resplits (session 44, at a share of 0.5): the spatial re-splits of the run's best. A re-split
    //   alone is often much worse (the array emptier) and the polish does not take it, but the polish
    //   from it refills the level with other dims: edge mm5 seed 1 ends 2.3 % above best-known on
    //   GLB-level N16 x K2 x M8; the re-split N 16 -> 10 (three 2s out, the 5 in) is 36 % worse, and its
    //   polish moves K's 2 out and M's in, to N10 x M16 at best-known.
    // - UnrollingMoves (session 47, every kick): the factor exchanges, refills, re-splits, block
    //   exchanges and inserts of the run's best that fit the fan-out and change its spatial unrolling.
    //   Of 30 runs that missed best-known by 1-5 %, 27 have such a neighbour whose polish ends below
    //   the run's best (22 within 1 % of best-known), 9-85 candidates per trap; the end game of one
    //   segment was too short to reach them (61 of 84 runs of seed 1 reach it, with 3.7 kicks each).
    //   With endgameSegments 2, 84 cells x seeds 1-30: 2,182 against 2,133 runs within 1 %, 2,437
    //   against 2,432 within 5 %, geometric mean 1.0073 against 1.0078 (session 46's end game; ablation
    //   `sparsemap-resplit-kicks`; docs/results/search-quality.md, session 47).
    double endgameNeighbourKicks = 1;
    EndgameKickPool endgameKickPool = EndgameKickPool::UnrollingMoves;
    // From the end game (or the final follow-ups, whichever comes first) on, the polish's carried
    // neighbours keep a compressed rank carried above an uncompressed one as UOP, instead of the
    // repair's reordering (DesignMoves::setCarriedFormatRepair, FormatRepair::Offsets; with the repair
    // on, in Sparseloop's format space): a loop order move and the formats it needs become one move
    // (edge mm15 ended 1.5-3.1 % above best-known in 7 of 10 runs for want of it). Throughout the run it did
    // worse (650 runs within 1 % against 659, session 39: the neighbourhood changes every schedule);
    // from the end game on, 84 cells x seeds 1-20 (session 40): 1,295 against 1,285 runs within 1 % (+3
    // on seeds 1-10, +7 on 11-20), 1,577 against 1,562 within 5 %, geometric mean 1.0128 against 1.0138.
    // Ablation `sparsemap-no-endgame-offsets`.
    bool endgameOffsetFormats = true;
    // From the same point on, the polish has two more tiers, last: loop relocations (a loop moved two
    // or more places among its level's loops; DesignMoves::loopRelocationNeighbours) and one-for-two
    // exchanges between temporal levels (DesignMoves::temporalRefillNeighbours), and the end game
    // first polishes the run's best with them. Throughout the run they cost runs on mobile (seeds 1-10:
    // 656 runs within 1 % against 662 with relocations, 659 with the refills; session 41). From the end
    // game on, 84 cells x seeds 1-30: 1,979 against 1,960 runs within 1 %, 2,381 against 2,367 within
    // 5 %, geometric mean 1.0116 against 1.0124. Ablation `sparsemap-no-endgame-tiers`.
    bool endgameExtraTiers = true;
    // With the extra tiers, the local optima of the segments' polishes are polished again with them,
    // best first, each once: those within this share above the run's best (1 = up to twice its value;
    // negative = none). When the final follow-ups run (the run's best first, then the others) and when
    // the end game begins (after its re-polish of the run's best, the optima not yet re-polished). A
    // segment's optimum a few percent above the run's best can lie in a basin the extra tiers open
    // further: most segments end within 5 % of the run's best (84 cells x seeds 1-4), and on mobile mm4
    // seed 1 a re-polished optimum ends 0.80 % above best-known where the run's best stopped 1.35 %
    // above. 84 cells x seeds 1-30 (session 42): 1,998 against 1,979 runs within 1 %, 2,392 against
    // 2,381 within 5 %, geometric mean 1.0111 against 1.0116; about 4 optima and 3.9 % of the budget
    // per run (seed 1). Ablation `sparsemap-no-endgame-repolish`.
    double endgameRepolishWithin = 1.0;
    // The polish by first improvement: its neighbours in random order, evaluated in batches of this
    // many, the best improving neighbour of the first batch that has one taken. 0 = steepest descent
    // (the whole neighbourhood per step; measured worse: docs/results/search-quality.md).
    int polishBatch = 32;
    // When no single move improves, the polish also tries (second tier) every pair of format genes of
    // one tensor among those its ranks use (DesignMoves::formatPairNeighbours): compressing a tensor at
    // another rank changes two genes that are each worse alone (mm11 on mobile: P from U-U-U-RLE to
    // U-UOP-U-U).
    bool polishFormatPairs = true;
    // The pairs are only the moves of a tensor's compression to another rank
    // (DesignMoves::compressionMoveNeighbours): of the 519 pairs the polish took on the 84 cells (seed 1,
    // every pair tried), 514 were such moves, and the tier of every pair spent 9 % of the runs'
    // evaluations (152,522 of 1,680,000; 119,788 of them in scans that found nothing). With
    // polishSkipGateLate, 84 cells x seeds 1-30: see polishSkipGateLate. Ablation
    // `sparsemap-all-format-pairs` (false).
    bool polishCompressionMovesOnly = true;
    // The changes of one S/G gene leave the first tier for a tier of their own, first in the second
    // (DesignMoves::neighboursWithoutSkipGate, skipGateNeighbours): in the first tier they were 15 % of
    // its evaluations (111,751 of 727,161, 84 cells x seed 1) for 4.5 % of its improving steps (442 of
    // 9,828). Both changes together (about 9 % more polishes per run: 537 against 492 on the 84 cells,
    // seed 1), 84 cells x seeds 1-30: 2,042 against 2,027 runs within 1 %, 2,418 against 2,398 within
    // 5 %, geometric mean 1.0087 against 1.0099 (better on each block of 10 seeds; mobile mm6 6 -> 19
    // runs within 1 %; docs/results/search-quality.md, session 45). Ablation
    // `sparsemap-skip-gate-first-tier` (false).
    bool polishSkipGateLate = true;
    // ... and (second tier) every exchange of the levels of two prime factors
    // (DesignMoves::factorExchangeNeighbours): the exact mapping optimum of a sparse strategy (sparsemap
    // optimum) is often one such exchange away.
    bool polishFactorExchanges = true;
    // ... and, right after the exchanges, every one-for-two exchange of a dim's prime factors at a
    // spatial level (DesignMoves::factorRefillNeighbours): a spatial level refills its fan-out with
    // another product of the dim (cloud mm7: the MAC level's K 48 -> 64, 1.565x -> 1.003x of the
    // best-known). Ablation `sparsemap-no-refills` (false); docs/results/search-quality.md.
    bool polishRefills = true;
    // ... and, right after them, every re-split of a dim's spatial unrolling
    // (DesignMoves::spatialResplitNeighbours): three or more of the dim's prime factors trade levels
    // between a spatial level and another, the unrolling changing by at most 2x (mobile mm4: N 16 -> 15
    // at the PEs). 84 cells x seeds 1-30: 1,998 -> 2,022 runs within 1 % of 2,520, geometric mean
    // 1.0111 -> 1.0100 (docs/results/search-quality.md). Ablation `sparsemap-no-resplits` (false).
    bool polishResplits = true;
    // The order of the second tier: factor exchanges before format pairs. Per evaluation the exchanges
    // improve far more often (measured with prints on six cells: ~50-80 evaluations per improvement
    // against ~150-750 for the pairs, none in 1,788 on cloud mm7), and a format pair is tried only where
    // no exchange helps. Ablation `sparsemap-pairs-first` (false); docs/results/search-quality.md.
    bool polishExchangesBeforePairs = true;
    // Last tier (repairs): the mapping moves of the first tier that came out invalid, each with one
    // compressed tensor (or every one) turned uncompressed (DesignMoves::uncompressedVariants): a
    // tile that grows into a buffer can overflow it with its metadata alone (mm1 / edge: K's 31 to the
    // PE buffer fits only with Q uncompressed; 1.61x -> 1.05x of the best-known in one step). Measured
    // on 84 cells x 20 seeds: the aggregate unchanged, the mm1 / edge trap gone in every seed
    // (docs/results/search-quality.md, "A repair tier"). Ablation `sparsemap-no-repairs` (false).
    bool polishRepairs = true;
    // The first tier also moves blocks of equal prime factors (DesignMoves::factorBlockNeighbours: all
    // the factors p of a dimension at one level to another level at once): a tile that halves or
    // doubles one factor at a time can be worse at every step (mm11 / mobile: N's 64 from the PE
    // buffer to DRAM). Measured on 84 cells x 20 seeds: 923 of 1,680 runs within 1 % of best-known
    // against 835 without (docs/results/search-quality.md, "Moves of blocks of equal factors").
    // Ablation `sparsemap-no-block-moves` (false).
    bool polishBlockMoves = true;
    // The second tier ends with exchanges of blocks of equal prime factors between two dimensions
    // (DesignMoves::factorBlockExchangeNeighbours: two or all of one dim's factors p at one level trade
    // levels with as many of another dim's at another level): a tile keeps its size and changes its
    // shape by more than one prime at once - P for Q or C for K on SpConv, M for N on SpMM - where each
    // single exchange on the way is worse. 84 cells x seeds 1-20 (session 32): 1,195 against 1,113 runs
    // within 1 % of 1,680 (+18, +19, +11, +34 by block of 5 seeds; SpConv 632 against 565, SpMM 563
    // against 548), geometric mean without edge mm5 1.024 against 1.027 (docs/results/search-quality.md).
    // Ablation `sparsemap-no-block-exchanges` (false).
    bool polishBlockExchanges = true;
    // ... and, after them, moves of a prime factor to a temporal level where its dim has no loop yet, the
    // new loop at each other place among the level's loops (DesignMoves::factorInsertNeighbours): the
    // single moves put a new loop where the level's order has the dim, and another place is a second
    // step, worse alone (edge mm14: M's 2 into the PE buffer is better only with its loop innermost). A
    // few dozen candidates per local optimum, 0.67 % of the evaluations (84 cells, seed 1). 84 cells x
    // seeds 1-20 (session 33): 1,186 against 1,195 runs within 1 % (noise), the geometric mean 1.030
    // against 1.028 (within its standard error), a better median on 28 cells and a worse one on 16, edge
    // mm14 within 1 % in 11 runs against 3, cloud mm11 (a trap cell) in 2 against 0
    // (docs/results/search-quality.md). Ablation `sparsemap-no-inserts` (false).
    bool polishFactorInserts = true;
    // The second tier starts with the orders of the unit loops a storage level binds its ranks to
    // (DesignMoves::boundLoopOrderNeighbours; orderedLoopMasks): where such a loop sits orders the
    // tile's ranks and their metadata in Sparseloop (cloud conv4: another order of DRAM's unit loops
    // alone is 2.3 % better), which no single move changes. Measured on 84 cells x 20 seeds with the
    // exact canonical form: the aggregate unchanged (docs/results/search-quality.md, "Unit loops a
    // storage level binds its ranks to"). Ablation `sparsemap-no-bound-orders` (false).
    bool polishBoundLoopOrders = true;
    // Follow-ups (session 30): a local optimum's first-tier mapping moves that are worse by at most
    // `followUpWithin` (a share) or invalid - the tier records them, and those evaluated before by their
    // recorded objective - may need the sparse strategy re-chosen for the ranks they change (cloud mm3:
    // M's 73 into the PE buffer, 0.5 % worse or invalid with P's and Z's formats as they are, 1.7 %
    // better with three of their format genes changed; 8 of 10 runs stopped 1.7 % short). From the best
    // `followUpValidStarts` such valid moves and `followUpInvalidStarts` invalid ones drawn at random,
    // each gets a step of first improvement over DesignMoves::followUpNeighbours and, once below the
    // local optimum, up to followUpSteps - 1 more, then the polish goes on from the first that beats
    // it. They cost ~300-1,500 evaluations, too many for every local optimum (measured: worse in the
    // aggregate), so only the best local optimum the polish has ended on gets them, when the end game
    // begins and when the budget left first falls to `followUpShare` of the budget (each time the best
    // found since the last follow-ups, if it is better than every local optimum before). 84 cells x seeds
    // 1-20: 1,113 against 1,121 runs within 1 % (noise), the geometric mean within 0.002, cloud mm3 within
    // 1 % in 11 runs against 4 (docs/results/search-quality.md, session 30). 0 share = off; ablation
    // `sparsemap-no-follow-ups`.
    int followUpValidStarts = 5;
    int followUpInvalidStarts = 30;
    double followUpWithin = 0.02;
    int followUpSteps = 3;
    double followUpShare = 0.15;
    // The follow-ups also move a changed tensor's compression between two ranks the tile had before
    // (DesignMoves::followUpNeighbours with compressionMoves), and their valid starts are the moves
    // strictly worse than the local optimum (not those that score exactly as it: mostly the same design
    // under another genome). Mobile mm4 (28 of 30 runs 1.2-1.3 % above best-known) needs M's 2 from the
    // GLB to DRAM (0.6 % worse) and then P's compression moved from K to M as an offset pair (invalid
    // before the move); the follow-ups had the first step, but paired only genes on a new rank and filled
    // their five starts with equal-valued moves. With the two polish changes above, 84 cells x seeds
    // 1-30: 2,066 against 2,042 runs within 1 % (mobile mm4 1 -> 16), 2,414 against 2,418 within 5 %,
    // geometric mean 1.0088 against 1.0087 (docs/results/search-quality.md, session 45). Ablation
    // `sparsemap-narrow-follow-ups` (both false).
    bool followUpCompressionMoves = true;
    bool followUpStrictStarts = true;
    // Move memory in a polish (don't-look bits, as local searches skip moves that did not help nearby):
    // within one descent, a move (geneChanges: the genes a candidate changes in the current design, and
    // their values) of the first or second tier that came out worse than the design it was tried on by
    // more than this share is not tried again at a later step of that descent, where it mostly is worse
    // again. Invalid moves are tried again (a smaller tile may let them fit). Each step then finds its
    // improving batch sooner and a local optimum costs fewer evaluations to confirm, at the risk of
    // missing a move that has turned good. Negative = off. At 0.05 (session 31), 84 cells x seeds 1-15:
    // 855 against 850 runs within 1 % of 1,260 (noise); variant `sparsemap-move-memory`. At 1 (a move
    // more than twice as bad; session 46) the polish confirms its local optima for 14 % fewer
    // evaluations (84 cells, seed 1: 1,180 per polish against 1,366; 598 polishes against 542): 84 cells
    // x seeds 1-30, 2,133 against 2,066 runs within 1 % of 2,520 (+6, +30, +31 by block of 10 seeds),
    // 2,432 against 2,414 within 5 %, geometric mean 1.0078 against 1.0088. Skipping also the moves that
    // scored exactly as the design (the same design for this tile) and the invalid ones saves more
    // (1,028 per polish) but scores 2,107 (docs/results/search-quality.md). At 0.5 (more than 50 %
    // worse; session 48): 84 cells x seeds 1-30, 2,210 against 2,182 runs within 1 % of 2,520 (+13, +9,
    // +6 by block of 10 seeds), geometric mean 1.0064 against 1.0073. Variant
    // `sparsemap-move-memory-100` (1, session 47's default); ablation `sparsemap-no-move-memory` (-1).
    double polishMoveMemory = 0.5;
    // How moves of the mapping treat the format genes: positional (the genes stay with rank positions,
    // so a loop swap or a new rank also changes which format each loop has), carried (each loop keeps
    // its format: genome_codec's carryFormats), or both (the neighbourhood has both; a step draws one).
    DesignMoves::Formats mappingMoveFormats = DesignMoves::Formats::Both;
    // Sub-search of the sparse strategy at a local optimum (issue 13): the best's strategy neighbours
    // (DesignMoves::strategyNeighbours: S/G combinations x tensors turned uncompressed) at its mapping,
    // up to `strategySamples` of them in random order, then the `strategyCandidates` best of them each
    // polished (the mapping follows the new strategy). Once per best, when the run would restart
    // (strategyAfterPolish false) or right after the best's polish (true). 0 candidates = off.
    int strategyCandidates = 0;
    int strategySamples = 300;
    bool strategyAfterPolish = false;
    // Survival by niches: at most this many members share a tiling (the tiling genes of the canonical
    // genome); the rest of the population, if any room is left, from the best of the others. 0 = off.
    int nicheSize = 0;
    // Survival by unrolling niches (when nicheSize is 0): at most this many members share a spatial
    // unrolling (DesignMoves::spatialUnrolling); room left goes to the best of the others. A segment
    // keeps breeding from many unrollings instead of the few whose designs are best early, before the
    // others' formats and tiles are tuned. 84 cells x 20 seeds: 1,015 -> 1,121 runs within 1 %, geometric
    // mean 1.042 -> 1.028 (docs/results/search-quality.md, session 28). Ablation
    // `sparsemap-no-unrolling-niches` (0).
    int unrollingNicheSize = 3;

    // Whether the capacity pre-check runs: it checks genomes as evaluated, so only with the Cantor
    // encoding (the random-code ablation's genes are not Cantor codes).
    bool capacityPrecheckApplies() const
    {
        return capacityPrecheck && permutationEncoding == PermutationEncoding::Cantor;
    }
};

// The published ES (paper IV-D, IV-E): SAC, annealing mutation with Cantor steps, HSHI after
// calibration, no canonical form, no polish, no restarts.
SparseMapEsParameters sparseMapPaperParameters();

// Throws std::invalid_argument naming the first bad parameter.
void validate(const SparseMapEsParameters& parameters);

// The calibration actually run for a budget: samplesPerGene, then trials, lowered (not below 1)
// until trials x genes x samplesPerGene <= maxCalibrationShare x budget.
CalibrationParameters calibrationPlan(const SparseMapEsParameters& parameters, int genes,
                                      std::int64_t budget);

// What a run learnt besides its points: for the GUI's sensitivity strip and for tests.
struct SparseMapEsReport {
    CalibrationResult calibration;
    int initialPopulation = 0;
    int initialValid = 0;
    std::int64_t initializationEvaluations = 0; // calibration + HSHI
    std::int64_t precheckRejections = 0;        // genomes the capacity pre-check ruled out
    std::int64_t malformedRejections = 0;       // of them, malformed ones (freeMalformed)
    std::int64_t overflowRejections = 0;        // of them, ones overflowing with metadata (freeOverflowing)
    int plannedGenerations = 0;                 // G
    int polishes = 0;                           // local polishes run
    int polishImprovements = 0;                 // polish steps that found a better design
    std::int64_t polishEvaluations = 0;         // evaluations the polishes spent
    int repairImprovements = 0;                 // improving steps of the repair tier (polishes and end game)
    std::int64_t repairEvaluations = 0;         // evaluations it spent (polishes and end game)
    std::int64_t moveMemorySkips = 0;           // polish candidates the move memory left out
    int followUpImprovements = 0;               // follow-ups that beat their local optimum
    std::int64_t followUpEvaluations = 0;       // evaluations the follow-ups spent
    int restarts = 0;
    int earlyRestarts = 0;                 // of them, those restartMargin brought forward
    std::int64_t firstEarlyRestart = -1;   // evaluations used when the first of them came; -1: none
    int confinedPolishes = 0;              // polishes that began confined (confinedPolish)
    std::int64_t confinedEvaluations = 0;  // evaluations their confined first descents spent
    std::int64_t firstConfinedPolish = -1; // evaluations used when the first of them began; -1: none
    std::int64_t endgameStart = -1;        // evaluations used when the end game began; -1: it did not
    int endgameKicks = 0;                  // kicks of the best it evaluated
    int endgameNeighbourKicks = 0;         // of them, neighbour kicks (endgameNeighbourKicks)
    std::int64_t endgameEvaluations = 0;   // evaluations it spent (its polishes included)
    int repolishedOptima = 0;              // segments' local optima besides the run's best polished again
    int repolishImprovements = 0;          // of them, those that beat the run's best (endgameRepolishWithin)
    std::int64_t repolishEvaluations = 0;  // evaluations they spent
    int strategySearches = 0;              // sub-searches of the sparse strategy run
    int strategyImprovements = 0;          // of them, those that found a better design
    std::int64_t strategyEvaluations = 0;  // evaluations they spent (their polishes included)
};

class SparseMapEs : public Optimizer {
public:
    // `name` is the method name the run reports (empty: derived from the parameters).
    explicit SparseMapEs(SparseMapEsParameters parameters = {}, std::string name = {}); // validates
    const SparseMapEsParameters& parameters() const { return m_parameters; }
    std::string name() const override;
    void run(SearchContext& context) override;
    // The report below as lines: calibration and initialization, polishes, restarts, end game.
    std::vector<std::string> summary() const override;
    // Of the last run.
    const SparseMapEsReport& report() const { return m_report; }

private:
    SparseMapEsParameters m_parameters;
    std::string m_name;
    SparseMapEsReport m_report;
};

} // namespace sparsemap::search
