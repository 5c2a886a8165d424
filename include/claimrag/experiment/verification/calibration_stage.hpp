#pragma once
// `claimrag calibrate` and `claimrag evaluate --pairs`: a verifier on the user's labelled pairs
// (verification/labelled_pairs.hpp).
//
// calibrate runs the verifier once over every pair, chooses its rule's threshold by claim-grouped
// cross-validation (verification/threshold_calibration.hpp) and writes:
//  - RULE (--out): a partial configuration that every verifying command accepts as --config:
//      {"verification": {"checkpoint": {"threshold": t, "checker": ..., "labels": [...]}},
//       "grounding": {"support_threshold": t, "conflict_threshold": t}}
//    (labels only when declared; conflict_threshold only for three-way labels), so that `verify`,
//    `ground`, `sufficiency` and `interrogate` decide with the chosen threshold;
//  - the report beside it (RULE's name with ".calibration.json"): the verifier's record, the
//    metric, the pairs and claim groups, the folds and their thresholds, the cross-validated
//    score with its 95 % bootstrap interval, and the in-sample scores at the chosen threshold and
//    at the default 0.5.
// Only rules with a threshold on probabilities are calibrated: checkpoint:DIR (the NLI rule and
// the checkers) and tei:URL. The built-in verifier chooses its own thresholds when trained, and an
// LLM judge gives labels, not probabilities: both are refused.
//
// evaluate --pairs scores the verifier, under the rule the configuration sets, on labelled pairs:
// per "dataset" (LLM-AggreFact's datasets) and over all pairs, balanced accuracy for two-way labels
// or macro-F1 for three-way, with the mean over datasets (LLM-AggreFact's headline number), in
// PREFIX.json and PREFIX.tsv, and one line per dataset on stdout. A pair the verifier could not
// judge (a served model's failure) is an error of both commands, as a score without it would not be
// the verifier's.

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/verification/verifier_source.hpp"

namespace claimrag::experiment {

struct CalibrateRequest {
  std::filesystem::path pairs;  ///< labelled pairs
  std::filesystem::path out;    ///< the rule (a partial configuration)
  VerifierSource source;
  std::size_t folds = 5;
};

/// The report's path: `out` with ".calibration.json" for its extension.
std::filesystem::path calibration_report_path(const std::filesystem::path& out);

/// Runs calibrate (see above). UsageError for a verifier whose rule has no threshold.
void run_calibrate(const CalibrateRequest& request, const ExperimentConfig& config);

struct EvaluatePairsRequest {
  std::filesystem::path pairs;
  std::filesystem::path out;  ///< a prefix: PREFIX.json (the scores, the verifier's record) and PREFIX.tsv
  VerifierSource source;
};

void run_evaluate_pairs(const EvaluatePairsRequest& request, const ExperimentConfig& config, std::ostream& out);

}  // namespace claimrag::experiment
