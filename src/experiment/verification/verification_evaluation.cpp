#include "claimrag/experiment/verification/verification_evaluation.hpp"

#include <array>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/evaluate_stage.hpp"
#include "claimrag/experiment/evidence/evidence_training.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/verification/prediction.hpp"

namespace claimrag::experiment {
namespace {

/// The counts behind each official metric, in official_metric_names() order: correct, retrieved, relevant.
std::array<std::array<std::size_t, 3>, 4> count_rows(const verification::VerificationCounts& counts) {
  return {{{counts.abstract_correct_label_only, counts.abstract_retrieved, counts.abstract_relevant},
           {counts.abstract_correct_rationalized, counts.abstract_retrieved, counts.abstract_relevant},
           {counts.sentence_correct_selection, counts.sentence_retrieved, counts.sentence_relevant},
           {counts.sentence_correct_label, counts.sentence_retrieved, counts.sentence_relevant}}};
}

std::array<verification::PrecisionRecallF1, 4> score_rows(const verification::OfficialScores& scores) {
  return {scores.abstract_label_only, scores.abstract_rationalized, scores.sentence_selection, scores.sentence_label};
}

nlohmann::json counts_to_json(const verification::VerificationCounts& counts) {
  return {{"abstract_relevant", counts.abstract_relevant},
          {"abstract_retrieved", counts.abstract_retrieved},
          {"abstract_correct_label_only", counts.abstract_correct_label_only},
          {"abstract_correct_rationalized", counts.abstract_correct_rationalized},
          {"sentence_relevant", counts.sentence_relevant},
          {"sentence_retrieved", counts.sentence_retrieved},
          {"sentence_correct_selection", counts.sentence_correct_selection},
          {"sentence_correct_label", counts.sentence_correct_label}};
}

}  // namespace

verification::VerificationMetrics evaluate_verification(const VerificationEvaluationRequest& request) {
  if (request.split != "train" && request.split != "dev" && request.split != "test") {
    throw UsageError("unknown verification split \"" + request.split + "\" (expected train, dev or test)");
  }
  const auto abstracts = dataset::load_abstracts(request.original / "corpus.jsonl");
  const auto claims = dataset::load_claims(original_claims_file(request.original, request.split), &abstracts);
  const auto predictions = verification::read_predictions(request.predictions);
  verification::check_against_abstracts(predictions, abstracts, request.predictions);
  std::unordered_set<std::string> claim_ids;
  for (const auto& claim : claims) claim_ids.insert(claim.id);
  for (const auto& prediction : predictions) {
    // score_predictions refuses these too, but only this message can name the prediction file.
    if (!claim_ids.contains(prediction.claim_id)) {
      throw DataError(request.predictions.string(), prediction.line,
                      "claim " + prediction.claim_id + " is not a claim of split " + request.split);
    }
  }
  return verification::score_predictions(predictions, claims);
}

std::map<std::string, double> verification_metric_values(const verification::OfficialScores& scores) {
  std::map<std::string, double> values;
  const auto rows = score_rows(scores);
  const auto& names = verification::official_metric_names();
  for (std::size_t m = 0; m < rows.size(); ++m) {
    values[names[m] + "_precision"] = rows[m].precision;
    values[names[m] + "_recall"] = rows[m].recall;
    values[names[m] + "_f1"] = rows[m].f1;
  }
  return values;
}

void write_verification_evaluation(const verification::VerificationMetrics& metrics, const std::string& source,
                                   const std::string& split, const std::filesystem::path& out) {
  const auto prefix = output_prefix(out);
  io::Table table{{"metric", "precision", "recall", "f1", "correct", "retrieved", "relevant"}, {}};
  const auto scores = score_rows(metrics.scores);
  const auto counts = count_rows(metrics.counts);
  for (std::size_t m = 0; m < scores.size(); ++m) {
    table.rows.push_back({verification::official_metric_names()[m], io::fixed(scores[m].precision, 6),
                          io::fixed(scores[m].recall, 6), io::fixed(scores[m].f1, 6), std::to_string(counts[m][0]),
                          std::to_string(counts[m][1]), std::to_string(counts[m][2])});
  }
  nlohmann::json per_claim = nlohmann::json::array();
  for (std::size_t c = 0; c < metrics.claim_ids.size(); ++c) {
    auto entry = counts_to_json(metrics.per_claim[c]);
    entry["id"] = metrics.claim_ids[c];
    per_claim.push_back(std::move(entry));
  }
  const nlohmann::json json{{"predictions", source},
                            {"split", split},
                            {"claims", metrics.claim_ids.size()},
                            {"claims_without_prediction", metrics.claims_without_prediction},
                            {"documents_over_sentence_cap", metrics.documents_over_sentence_cap},
                            {"metrics", verification_metric_values(metrics.scores)},
                            {"counts", counts_to_json(metrics.counts)},
                            {"per_claim", per_claim}};
  // Both texts are built before either file is written, so a failure leaves neither.
  const std::string tsv = io::to_tsv(table);
  const std::string json_text = json.dump(2) + "\n";
  io::write_file_atomically(prefix.string() + ".tsv", tsv);
  io::write_file_atomically(prefix.string() + ".json", json_text);
}

}  // namespace claimrag::experiment
