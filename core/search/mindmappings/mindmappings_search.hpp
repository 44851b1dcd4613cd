#pragma once
// "mindmappings": Mind Mappings (Hegde et al., ASPLOS'21) on the SparseMap genome.
//
// Phase 1 (paper 4.1): a share of the budget samples random designs (uniform genomes that pass the
// spatial fan-out pre-check, which costs nothing), each scored by the model through the search
// context, so the samples count against the budget. The valid ones, minus a held-out share, train
// the surrogate (surrogate.hpp) on their cost statistics. Phase 2 (paper 4.2, App. A): projected
// gradient search on the surrogate (projected_gradient_search.hpp), every projected candidate scored
// by the model (counted); random injections come first from the unused sampled valid designs
// (already scored: free), then from fresh draws (scored: counted). The best design is the best the
// model scored, as for every method.
//
// The search context reports totals only; the per-level energies the surrogate learns are read from
// a second evaluation of each valid sample by a private evaluator with the search's default model
// options (identical results; only the context's evaluation counts against the budget).
//
// With fewer than minTrainingDesigns valid samples, sampling continues past the training share; if
// the budget ends first the run was a random search (the report says so).
#include "search/mindmappings/projected_gradient_search.hpp"
#include "search/mindmappings/surrogate.hpp"
#include "search/optimizer.hpp"

namespace sparsemap::search {

struct MindMappingsParameters {
    double trainingShare = 0.3;   // of the budget, spent sampling training designs
    int sampleBatch = 100;        // designs per sampling batch (one generation each)
    int minTrainingDesigns = 32;  // valid samples needed to train
    double heldOutShare = 0.15;   // of the valid samples, kept out of training to measure accuracy
    int maxDrawsPerSample = 1000; // fan-out pre-check redraws before a draw is evaluated anyway
    int reportEveryEpochs = 10;   // training progress: one (empty) generation per this many epochs
    SurrogateParameters surrogate;
    GradientSearchParameters search;
};

void validate(const MindMappingsParameters& parameters); // throws std::invalid_argument

// What a run did, for the closing notes: how the budget was split and how good the surrogate was on
// valid designs it did not see (errors of the predicted objective against the model's).
struct MindMappingsReport {
    bool surrogateTrained = false;
    std::int64_t samplingEvaluations = 0; // phase-1 evaluations
    int validSamples = 0;
    int trainedOn = 0;
    int heldOut = 0;
    int epochs = 0;
    double trainingLoss = 0;               // last epoch's mean Huber loss (whitened units)
    double trainingSeconds = 0;            // wall clock of the training alone
    double heldOutMedianRelativeError = 0; // median |predicted - model| / model
    double heldOutMeanAbsLog10Error = 0;   // mean |log10(predicted / model)|
    double heldOutMeanAbsLog10Spread = 0;  // the same for a constant guess: mean |log10(model / geomean)|
    double heldOutSpearman = 0;            // rank correlation of predicted and model objectives
    GradientSearchStats search;
};

class MindMappingsSearch : public Optimizer {
public:
    explicit MindMappingsSearch(MindMappingsParameters parameters = {}); // validates
    std::string name() const override { return "mindmappings"; }
    void run(SearchContext& context) override;
    const MindMappingsParameters& parameters() const { return m_parameters; }
    // Of the last run.
    const MindMappingsReport& report() const { return m_report; }

private:
    MindMappingsParameters m_parameters;
    MindMappingsReport m_report;
};

} // namespace sparsemap::search
