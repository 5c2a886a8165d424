#include "claimrag/abstention/claim_answer.hpp"

#include <algorithm>

#include "claimrag/verification/rationale_selection.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::abstention {

using verification::Label;

ClaimAnswer claim_answer(const verification::ClaimVerdict& verdict) {
  ClaimAnswer answer;
  answer.claim_id = verdict.claim_id;
  const verification::DocumentVerdict* best = nullptr;
  for (const auto& document : verdict.documents) {
    for (const Label label : {Label::support, Label::contradict}) {
      const double probability = document.probabilities[static_cast<std::size_t>(label)];
      if (best == nullptr || probability > answer.probability) {
        best = &document;
        answer.verdict = label;
        answer.probability = probability;
      }
    }
  }
  if (best == nullptr) {
    answer.reason = verdict.reason.empty() ? "no document" : verdict.reason;
    return answer;
  }
  answer.answered = true;
  answer.doc_id = best->doc_id;
  answer.cited = best->rationale;
  if (answer.cited.empty() && !best->sentence_scores.empty()) {
    std::vector<double> scores;
    for (const auto& sentence : best->sentence_scores) scores.push_back(sentence.score);
    answer.cited = verification::best_sentences(scores, 1);
  }
  for (const std::size_t sentence : answer.cited) {
    if (sentence < best->sentence_scores.size()) {
      answer.citation_score = std::max(answer.citation_score, best->sentence_scores[sentence].score);
    }
  }
  return answer;
}

bool is_unsafe(const ClaimAnswer& answer, const dataset::Claim& claim) {
  if (!answer.answered) return true;
  const auto gold = verification::gold_document(claim, answer.doc_id);
  if (gold.label != answer.verdict) return true;
  for (const auto& set : gold.rationale_sets) {
    for (const std::size_t sentence : answer.cited) {
      if (std::find(set.begin(), set.end(), sentence) != set.end()) return false;
    }
  }
  return true;
}

}  // namespace claimrag::abstention
