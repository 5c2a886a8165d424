#pragma once
// Choosing a verifier rule's threshold on the user's own labelled pairs (`claimrag calibrate`),
// and scoring a labelling as LLM-AggreFact does.
//
// The score: balanced accuracy for two-way labels (the mean of the recall of supported and of
// unsupported pairs, over the classes the gold labels hold: LLM-AggreFact's measure), macro-F1
// over SUPPORT, CONTRADICT and NOT_ENOUGH_INFO for three-way labels.
//
// The choice: every threshold of the grid 0.01, 0.02, …, 0.99 turns each pair's verdict
// probabilities into a label by the verifier's rule (thresholded_label); the threshold of the best
// score wins (ties: the one nearest 0.5, then the smaller). The claim-grouped cross-validation
// that reports what the choice is worth: claim groups are shuffled with the seed and dealt into
// `folds` folds; each fold's pairs are labelled with the threshold chosen on the other folds; the
// score of those out-of-fold labels is the cross-validated score, with a percentile bootstrap
// interval over claim groups (metrics/bootstrap.hpp). The threshold written is the one chosen on
// every pair.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "claimrag/metrics/bootstrap.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"

namespace claimrag::verification {

/// How a rule labels a verdict from its probabilities and a threshold t.
enum class ThresholdRule {
  score_above,  ///< the checkers' (checker_verifier.hpp): SUPPORT when P(SUPPORT) > t, else NOT_ENOUGH_INFO
  decisive,     ///< the NLI rule's (checkpoint_verifier.hpp): NOT_ENOUGH_INFO when max(P(S), P(C)) < t, else the likelier (ties: SUPPORT)
};

Label thresholded_label(const LabelDistribution& probabilities, double threshold, ThresholdRule rule);

/// 0.01, 0.02, …, 0.99.
std::vector<double> threshold_grid();

/// Balanced accuracy of SUPPORT against the rest (`two_way`) or macro-F1 over the three labels, of
/// `predicted` against `gold`, over `items` (indices, repeats allowed) or every pair when empty.
double labelling_score(std::span<const Label> gold, std::span<const Label> predicted, bool two_way,
                       std::span<const std::size_t> items = {});

struct CalibrationOptions {
  ThresholdRule rule = ThresholdRule::score_above;
  std::size_t folds = 5;        ///< ≥ 2; fewer claim groups than folds: one fold per group
  std::uint64_t seed = 42;
  std::size_t resamples = 1000;
  double default_threshold = 0.5;  ///< reported beside the choice
};

struct ThresholdCalibration {
  double threshold = 0.5;              ///< chosen on every pair
  double score = 0.0;                  ///< at `threshold`, on every pair (in-sample)
  double default_score = 0.0;          ///< at options.default_threshold, on every pair
  double cross_validated = 0.0;        ///< the out-of-fold labels' score
  metrics::BootstrapInterval interval; ///< of cross_validated, over claim groups
  std::vector<double> fold_thresholds; ///< the threshold chosen without each fold, in fold order
  std::size_t folds = 0;
  std::size_t groups = 0;
};

/// The calibration of the rule on `probabilities` (one distribution per pair) against `gold`,
/// pairs grouped by `group_of`. UsageError for fewer than two claim groups or folds < 2;
/// InternalError for sizes that differ.
ThresholdCalibration calibrate_threshold(std::span<const LabelDistribution> probabilities, std::span<const Label> gold,
                                         std::span<const std::size_t> group_of, bool two_way,
                                         const CalibrationOptions& options);

}  // namespace claimrag::verification
