#include "claimrag/grounding/claim_judgement.hpp"

#include <algorithm>

#include "claimrag/error.hpp"

namespace claimrag::grounding {

using verification::Label;

std::string_view claim_label_name(ClaimLabel label) {
  switch (label) {
    case ClaimLabel::supported: return "supported";
    case ClaimLabel::conflicting: return "conflicting";
    case ClaimLabel::irrelevant: return "irrelevant";
  }
  throw InternalError("claim_label_name: unknown label");
}

ClaimLabel label_of(double support, double conflict, const GroundingThresholds& thresholds) {
  const double weighed_support = thresholds.contradict_ratio * support;
  if (conflict >= thresholds.conflict && conflict >= weighed_support) return ClaimLabel::conflicting;
  if (support >= thresholds.support && conflict < weighed_support) return ClaimLabel::supported;
  return ClaimLabel::irrelevant;
}

namespace {

/// The sentences a citation of `document` for `cited` shows: its rationale, or, for support
/// from a passage whose verdict selected no sentence (NOT_ENOUGH_INFO, which keeps a claim only
/// without the verdict gate), the one sentence its selector scored highest (the earliest of
/// equals), so that every kept claim points at a sentence when the verifier scores sentences. A
/// conflict citation never takes that fallback: the best-scored sentence of a passage is often the
/// one that agrees with the claim.
std::vector<std::size_t> cited_sentences(const verification::DocumentVerdict& document, Label cited) {
  if (cited != Label::support || !document.rationale.empty() || document.sentence_scores.empty()) return document.rationale;
  std::size_t best = 0;
  for (std::size_t i = 1; i < document.sentence_scores.size(); ++i) {
    if (document.sentence_scores[i].score > document.sentence_scores[best].score) best = i;
  }
  return {document.sentence_scores[best].index};
}

}  // namespace

ClaimJudgement judge_claim(const verification::VerificationInput& input, const verification::ClaimVerdict& verdict,
                           const GroundingThresholds& thresholds) {
  if (verdict.documents.size() != input.documents.size()) throw InternalError("judge_claim: one verdict per passage");
  ClaimJudgement judgement;
  // A passage the verifier calls NOT_ENOUGH_INFO supports nothing when the verdict gates support.
  const auto supports = [&](const verification::DocumentVerdict& document) {
    return !thresholds.verdict_gates_support || document.label != Label::not_enough_info;
  };
  judgement.judged_passages = verdict.documents.size();
  for (const auto& document : verdict.documents) {
    if (!document.failure.empty()) judgement.failed_passages.emplace_back(document.doc_id, document.failure);
    const double support = document.probabilities[static_cast<int>(Label::support)];
    judgement.ungated_support = std::max(judgement.ungated_support, support);
    if (document.label != Label::not_enough_info) judgement.gated_support = std::max(judgement.gated_support, support);
    judgement.conflict = std::max(judgement.conflict, document.probabilities[static_cast<int>(Label::contradict)]);
  }
  judgement.support = thresholds.verdict_gates_support ? judgement.gated_support : judgement.ungated_support;
  judgement.label = label_of(judgement.support, judgement.conflict, thresholds);
  switch (judgement.label) {
    case ClaimLabel::supported: judgement.confidence = judgement.support; break;
    case ClaimLabel::conflicting: judgement.confidence = judgement.conflict; break;
    case ClaimLabel::irrelevant: judgement.confidence = 1.0 - std::max(judgement.support, judgement.conflict); break;
  }
  if (judgement.label == ClaimLabel::irrelevant) return judgement;
  const Label cited = judgement.label == ClaimLabel::supported ? Label::support : Label::contradict;
  const double threshold = judgement.label == ClaimLabel::supported ? thresholds.support : thresholds.conflict;
  std::vector<std::size_t> order;
  for (std::size_t d = 0; d < verdict.documents.size(); ++d) {
    if (cited == Label::support && !supports(verdict.documents[d])) continue;
    if (verdict.documents[d].probabilities[static_cast<int>(cited)] >= threshold) order.push_back(d);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return verdict.documents[a].probabilities[static_cast<int>(cited)] > verdict.documents[b].probabilities[static_cast<int>(cited)];
  });
  for (const std::size_t d : order) {
    const auto& document = verdict.documents[d];
    const auto& sentences = input.documents[d].sentences;
    Citation citation{document.doc_id, document.probabilities[static_cast<int>(cited)], {}};
    for (const std::size_t index : cited_sentences(document, cited)) {
      if (index >= sentences.size()) throw InternalError("judge_claim: a cited sentence past the passage's end");
      const double score = index < document.sentence_scores.size() ? document.sentence_scores[index].score : 0.0;
      citation.sentences.push_back({index, sentences[index], score});
    }
    judgement.citations.push_back(std::move(citation));
  }
  return judgement;
}

}  // namespace claimrag::grounding
