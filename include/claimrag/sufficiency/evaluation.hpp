#pragma once
// The sufficiency experiment on a labelled benchmark whose pairs are scored: SURE (raw and
// calibrated), its ablations (each feature block removed; without the retrieval block is the
// no-oracle check), the pooling baselines and the shortcut baselines, all fitted on "train",
// every choice on "dev", every number on "test"; the artifact ratio and the counterfactual swaps.

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/sufficiency/example.hpp"
#include "claimrag/sufficiency/metrics.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"

namespace claimrag::sufficiency {

struct MethodResult {
  std::string name;  ///< "sure_calibrated", "mean_pool", "overlap_only", "sure_without_retrieval", ...
  std::string kind;  ///< "sure", "ablation", "pooling", "shortcut"
  ClassificationScores classification;
  SelectiveScores selective;
};

/// Full against one degraded variant of the same claim: P(gold label of the full evidence) must drop.
struct Counterfactual {
  std::string degradation;  ///< "partial", "hard_insufficient", "irrelevant"
  std::size_t comparisons = 0;
  double success = 0;        ///< fraction with P(full's label | full) > P(full's label | degraded)
  double mean_delta = 0;     ///< mean of that difference
};

struct SufficiencyReport {
  std::vector<MethodResult> methods;
  double artifact_ratio = 0;  ///< best shortcut macro-F1 / SURE (calibrated) macro-F1
  std::string best_shortcut;
  std::vector<Counterfactual> counterfactuals;
  double counterfactual_success = 0;  ///< over every comparison
  SureModel sure;                     ///< the calibrated model (every block)
  double dev_ece_raw = 0, dev_ece_calibrated = 0;  ///< binary decision ECE of SURE on dev, before / after the temperature
  std::size_t train = 0, dev = 0, test = 0;
};

struct EvaluationOptions {
  AggregatorOptions aggregator;
  std::size_t tfidf_features = 100;
};

/// Runs the experiment. Every example must be labelled and in split train, dev or test, each split
/// non-empty (UsageError otherwise); `scored` is parallel to `examples`.
SufficiencyReport evaluate_sufficiency(const std::vector<Example>& examples, const std::vector<ScoredExample>& scored,
                                       const EvaluationOptions& options);

/// Full against each degraded variant of the same group (examples of one split, their calibrated
/// probabilities in order): per degradation the comparisons, the fraction where P(full's gold
/// label) is strictly higher with the full evidence, and the mean difference; `overall` over all.
std::vector<Counterfactual> counterfactual_swaps(std::span<const Example> examples, std::span<const std::array<double, 3>> probabilities,
                                                double& overall);

/// Best shortcut macro-F1 / sure_calibrated macro-F1 (0 without either); names the best shortcut.
double artifact_ratio(std::span<const MethodResult> methods, std::string* best_shortcut = nullptr);

/// Set features of scored examples, in order.
std::vector<SetFeatures> example_features(const std::vector<ScoredExample>& scored);

}  // namespace claimrag::sufficiency
