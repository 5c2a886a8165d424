#include "claimrag/verification/official_metrics.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "claimrag/error.hpp"
#include "claimrag/verification/gold.hpp"

namespace claimrag::verification {
namespace {

/// A gold evidence document: its label and rationale sets.
struct GoldDocument {
  Label label = Label::support;
  std::vector<std::set<std::size_t>> rationales;
};

GoldDocument gold_document(const dataset::Claim& claim, const std::string& doc_id,
                           const std::vector<dataset::EvidenceSet>& sets) {
  GoldDocument gold;
  gold.label = gold_label(claim, doc_id);
  std::set<std::size_t> seen;
  for (const auto& set : sets) {
    std::set<std::size_t> rationale;
    for (const int index : set.sentences) {
      if (index < 0) throw DataError("claim " + claim.id + ": document " + doc_id + " has a negative sentence index");
      const auto sentence = static_cast<std::size_t>(index);
      // The official scorer asserts this: a sentence credited through two sets would be ambiguous.
      if (!seen.insert(sentence).second) {
        throw DataError("claim " + claim.id + ": sentence " + std::to_string(index) + " of document " + doc_id +
                        " is in two rationale sets");
      }
      rationale.insert(sentence);
    }
    gold.rationales.push_back(std::move(rationale));
  }
  return gold;
}

bool contains_all(const std::set<std::size_t>& predicted, const std::set<std::size_t>& rationale) {
  return std::includes(predicted.begin(), predicted.end(), rationale.begin(), rationale.end());
}

/// Predicted sentences credited at sentence level: those in a gold set predicted in full.
std::size_t credited_sentences(const std::set<std::size_t>& predicted, const GoldDocument& gold) {
  std::size_t credited = 0;
  for (const auto& rationale : gold.rationales) {
    if (contains_all(predicted, rationale)) credited += rationale.size();
  }
  return credited;
}

double ratio(std::size_t numerator, std::size_t denominator) {
  return denominator == 0 ? 0.0 : static_cast<double>(numerator) / static_cast<double>(denominator);
}

}  // namespace

VerificationCounts& VerificationCounts::operator+=(const VerificationCounts& other) {
  abstract_relevant += other.abstract_relevant;
  abstract_retrieved += other.abstract_retrieved;
  abstract_correct_label_only += other.abstract_correct_label_only;
  abstract_correct_rationalized += other.abstract_correct_rationalized;
  sentence_relevant += other.sentence_relevant;
  sentence_retrieved += other.sentence_retrieved;
  sentence_correct_selection += other.sentence_correct_selection;
  sentence_correct_label += other.sentence_correct_label;
  return *this;
}

const std::vector<std::string>& official_metric_names() {
  static const std::vector<std::string> names{"abstract_label_only", "abstract_rationalized", "sentence_selection",
                                              "sentence_label"};
  return names;
}

PrecisionRecallF1 precision_recall_f1(std::size_t correct, std::size_t retrieved, std::size_t relevant) {
  PrecisionRecallF1 result;
  result.precision = ratio(correct, retrieved);
  result.recall = ratio(correct, relevant);
  const double sum = result.precision + result.recall;
  result.f1 = sum == 0.0 ? 0.0 : 2.0 * result.precision * result.recall / sum;
  return result;
}

OfficialScores scores_from_counts(const VerificationCounts& counts) {
  return {precision_recall_f1(counts.abstract_correct_label_only, counts.abstract_retrieved, counts.abstract_relevant),
          precision_recall_f1(counts.abstract_correct_rationalized, counts.abstract_retrieved, counts.abstract_relevant),
          precision_recall_f1(counts.sentence_correct_selection, counts.sentence_retrieved, counts.sentence_relevant),
          precision_recall_f1(counts.sentence_correct_label, counts.sentence_retrieved, counts.sentence_relevant)};
}

VerificationCounts count_claim(const ClaimPrediction* prediction, const dataset::Claim& gold) {
  VerificationCounts counts;
  std::unordered_map<std::string, GoldDocument> gold_documents;
  for (const auto& [doc_id, sets] : gold.evidence) {
    auto document = gold_document(gold, doc_id, sets);
    counts.abstract_relevant += 1;
    for (const auto& rationale : document.rationales) counts.sentence_relevant += rationale.size();
    gold_documents.emplace(doc_id, std::move(document));
  }
  if (prediction == nullptr) return counts;
  for (const auto& document : prediction->documents) {
    if (document.label == Label::not_enough_info) continue;
    counts.abstract_retrieved += 1;
    counts.sentence_retrieved += document.sentences.size();
    const auto found = gold_documents.find(document.doc_id);
    if (found == gold_documents.end()) continue;
    const GoldDocument& gold_document = found->second;
    const bool label_right = document.label == gold_document.label;

    const std::size_t first = std::min(document.sentences.size(), max_abstract_sentences);
    const std::set<std::size_t> first_sentences(document.sentences.begin(),
                                                document.sentences.begin() + static_cast<std::ptrdiff_t>(first));
    if (label_right) {
      counts.abstract_correct_label_only += 1;
      const bool rationalized = std::any_of(gold_document.rationales.begin(), gold_document.rationales.end(),
                                            [&](const auto& rationale) { return contains_all(first_sentences, rationale); });
      counts.abstract_correct_rationalized += rationalized ? 1 : 0;
    }

    const std::set<std::size_t> all_sentences(document.sentences.begin(), document.sentences.end());
    const std::size_t credited = credited_sentences(all_sentences, gold_document);
    counts.sentence_correct_selection += credited;
    counts.sentence_correct_label += label_right ? credited : 0;
  }
  return counts;
}

VerificationMetrics score_predictions(std::span<const ClaimPrediction> predictions, std::span<const dataset::Claim> gold) {
  std::unordered_map<std::string, std::size_t> gold_position;
  for (std::size_t g = 0; g < gold.size(); ++g) {
    if (!gold_position.emplace(gold[g].id, g).second) throw DataError("gold claim " + gold[g].id + " is given twice");
  }
  std::vector<const ClaimPrediction*> prediction_of(gold.size(), nullptr);
  for (const auto& prediction : predictions) {
    const std::string where = prediction.line > 0 ? "line " + std::to_string(prediction.line) + ": " : "";
    const auto found = gold_position.find(prediction.claim_id);
    if (found == gold_position.end()) {
      throw DataError(where + "prediction for claim " + prediction.claim_id + ", which is not among the gold claims");
    }
    if (prediction_of[found->second] != nullptr) {
      throw DataError(where + "claim " + prediction.claim_id + " is predicted twice");
    }
    prediction_of[found->second] = &prediction;
  }
  VerificationMetrics metrics;
  for (std::size_t g = 0; g < gold.size(); ++g) {
    const auto* prediction = prediction_of[g];
    if (prediction == nullptr) {
      ++metrics.claims_without_prediction;
    } else {
      for (const auto& document : prediction->documents) {
        const bool over_cap = document.label != Label::not_enough_info && document.sentences.size() > max_abstract_sentences;
        metrics.documents_over_sentence_cap += over_cap ? 1 : 0;
      }
    }
    metrics.claim_ids.push_back(gold[g].id);
    metrics.per_claim.push_back(count_claim(prediction, gold[g]));
    metrics.counts += metrics.per_claim.back();
  }
  metrics.scores = scores_from_counts(metrics.counts);
  return metrics;
}

}  // namespace claimrag::verification
