#include "claimrag/grounding/ground.hpp"

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/verification/verify_inputs.hpp"

namespace claimrag::grounding {

bool partial_hallucination(std::span<const ClaimLabel> labels) {
  const auto has = [&](ClaimLabel label) { return std::find(labels.begin(), labels.end(), label) != labels.end(); };
  return has(ClaimLabel::supported) && has(ClaimLabel::conflicting);
}

namespace {

void recompose(std::string_view answer, GroundedAnswer& grounded) {
  std::vector<ClaimSpan> spans;
  std::vector<bool> keep;
  std::vector<ClaimLabel> labels;
  std::vector<ClaimLabel> kept_labels;
  for (const auto& claim : grounded.claims) {
    spans.push_back(claim.span);
    keep.push_back(claim.judgement.label == ClaimLabel::supported);
    labels.push_back(claim.judgement.label);
    if (keep.back()) kept_labels.push_back(claim.judgement.label);
  }
  grounded.kept_answer = join_claims(answer, spans, keep);
  grounded.partial_before = partial_hallucination(labels);
  grounded.partial_after = partial_hallucination(kept_labels);
  if (!grounded.kept_answer.empty()) return;
  grounded.kept_answer = kIDontKnow;
  grounded.refused = true;
  if (grounded.reason.empty()) grounded.reason = "no supported claim";
}

}  // namespace

std::vector<GroundedAnswer> ground_answers(const verification::ClaimVerifier& verifier, std::span<const AnswerToGround> answers,
                                           const GroundingThresholds& thresholds) {
  std::vector<GroundedAnswer> grounded(answers.size());
  std::vector<verification::VerificationInput> inputs;
  std::vector<std::pair<std::size_t, std::size_t>> owner;  // input -> (answer, claim)
  for (std::size_t a = 0; a < answers.size(); ++a) {
    const AnswerToGround& answer = answers[a];
    grounded[a].id = answer.id;
    const auto spans = segment_claims(answer.answer);
    if (!answer.verifier_claim_ids.empty() && answer.verifier_claim_ids.size() != spans.size()) {
      throw InternalError("answer " + answer.id + ": " + std::to_string(answer.verifier_claim_ids.size()) +
                          " verifier claim ids for " + std::to_string(spans.size()) + " claims");
    }
    if (spans.empty()) grounded[a].reason = "empty answer";
    if (!spans.empty() && answer.context.empty()) {
      grounded[a].reason = answer.empty_context_reason.empty() ? "empty context" : answer.empty_context_reason;
    }
    for (std::size_t c = 0; c < spans.size(); ++c) {
      GroundedClaim claim{spans[c], {}};
      if (answer.context.empty()) {
        claim.judgement.confidence = 1.0;
      } else {
        std::string claim_id = answer.verifier_claim_ids.empty() ? answer.id + "#" + std::to_string(c) : answer.verifier_claim_ids[c];
        inputs.push_back({std::move(claim_id), spans[c].text, answer.context});
        owner.emplace_back(a, c);
      }
      grounded[a].claims.push_back(std::move(claim));
    }
  }
  const auto verdicts = verification::verify_claims(verifier, inputs);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto [a, c] = owner[i];
    grounded[a].claims[c].judgement = judge_claim(inputs[i], verdicts[i], thresholds);
  }
  for (std::size_t a = 0; a < answers.size(); ++a) recompose(answers[a].answer, grounded[a]);
  return grounded;
}

nlohmann::ordered_json grounded_answer_json(const GroundedAnswer& grounded) {
  nlohmann::ordered_json line;
  line["id"] = grounded.id;
  line["answer"] = grounded.kept_answer;
  line["refused"] = grounded.refused;
  if (!grounded.reason.empty()) line["reason"] = grounded.reason;
  line["partial_hallucination"] = {{"before", grounded.partial_before}, {"after", grounded.partial_after}};
  auto claims = nlohmann::ordered_json::array();
  for (std::size_t c = 0; c < grounded.claims.size(); ++c) {
    const auto& claim = grounded.claims[c];
    const auto& judgement = claim.judgement;
    auto citations = nlohmann::ordered_json::array();
    for (const auto& citation : judgement.citations) {
      auto sentences = nlohmann::ordered_json::array();
      for (const auto& sentence : citation.sentences) {
        sentences.push_back({{"index", sentence.index}, {"text", sentence.text}, {"score", sentence.score}});
      }
      citations.push_back({{"doc_id", citation.doc_id}, {"probability", citation.probability}, {"sentences", std::move(sentences)}});
    }
    claims.push_back({{"index", c},
                      {"text", claim.span.text},
                      {"begin", claim.span.begin},
                      {"end", claim.span.end},
                      {"label", claim_label_name(judgement.label)},
                      {"confidence", judgement.confidence},
                      {"probabilities", {{"support", judgement.support}, {"conflict", judgement.conflict}}},
                      {"kept", judgement.label == ClaimLabel::supported},
                      {"citations", std::move(citations)}});
    if (!judgement.failed_passages.empty()) {
      auto failed = nlohmann::ordered_json::object();
      for (const auto& [doc_id, reason] : judgement.failed_passages) failed[doc_id] = reason;
      claims.back()["failed"] = std::move(failed);
    }
  }
  line["claims"] = std::move(claims);
  return line;
}

}  // namespace claimrag::grounding
