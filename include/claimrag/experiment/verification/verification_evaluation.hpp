#pragma once
// Scoring a verification prediction file (verification/prediction.hpp) against the SciFact
// release layout with the official metrics (verification/official_metrics.hpp), and writing the
// scores as TSV and JSON like the other evaluations.

#include <filesystem>
#include <map>
#include <string>

#include "claimrag/verification/official_metrics.hpp"

namespace claimrag::experiment {

struct VerificationEvaluationRequest {
  std::filesystem::path predictions;  ///< JSON Lines, one line per claim
  std::filesystem::path original;     ///< SciFact release layout: corpus.jsonl, claims_<split>.jsonl
  std::string split;                  ///< "train", "dev", or "test" (the BEIR test claims: SciFact's dev)
};

/// Loads original/corpus.jsonl and the split's claims, reads the predictions, checks every
/// predicted document and sentence against the corpus (DataError naming the prediction file and
/// line) and scores them; gold claims without a prediction line predict nothing. UsageError for
/// another split name.
verification::VerificationMetrics evaluate_verification(const VerificationEvaluationRequest& request);

/// "<metric>_precision", "<metric>_recall", "<metric>_f1" for each official metric name: the
/// names printed, written under "metrics" and compared by --check.
std::map<std::string, double> verification_metric_values(const verification::OfficialScores& scores);

/// Writes `<prefix>.tsv` (columns metric, precision, recall, f1, correct, retrieved, relevant; one
/// row per official metric) and `<prefix>.json` ("metrics" as verification_metric_values, pooled
/// "counts", the claim counts, and "per_claim": the counts of every gold claim in gold order).
void write_verification_evaluation(const verification::VerificationMetrics& metrics, const std::string& source,
                                   const std::string& split, const std::filesystem::path& out);

}  // namespace claimrag::experiment
