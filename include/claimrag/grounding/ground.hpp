#pragma once
// Claim-level selective grounding: an answer's sentence-level claims (claim_segmenter.hpp) are
// each judged against the answer's context passages by the 3-way verifier, labelled by the rule
// of claim_judgement.hpp, and the answer is recomposed from its supported claims in their
// original order, joined as in the input; "I don't know" when none remains.
//
// Every input answer gives one output, in input order; nothing is dropped:
//  - an answer that is empty or only whitespace has no claim: "I don't know", reason "empty answer";
//  - an answer with an empty context (no passage given, or none retrieved) is not sent to the
//    verifier: every claim irrelevant (confidence 1), "I don't know", reason "empty context";
//  - an answer none of whose claims is supported: "I don't know", reason "no supported claim".
// Partial hallucination flags use the verifier's labels: at least one supported and at least one
// conflicting claim, before (all claims) and after (kept claims) grounding.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "claimrag/grounding/claim_judgement.hpp"
#include "claimrag/grounding/claim_segmenter.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::grounding {

/// The answer that replaces a refused one.
inline constexpr const char* kIDontKnow = "I don't know";

/// One answer to ground with its context passages.
struct AnswerToGround {
  std::string id;
  std::string answer;
  std::vector<verification::EvidenceDocument> context;
  /// Why the context is empty when it is ("empty context" is used when this is empty).
  std::string empty_context_reason;
  /// The claim ids the verifier is called with, one per claim in segment order; empty: "<id>#<n>"
  /// (n from 0). The benchmark passes SciFact claim ids so that a cross-fitted verifier can pick
  /// the model that held each claim out.
  std::vector<std::string> verifier_claim_ids;
};

struct GroundedClaim {
  ClaimSpan span;
  ClaimJudgement judgement;
};

struct GroundedAnswer {
  std::string id;
  std::vector<GroundedClaim> claims;
  std::string kept_answer;  ///< the supported claims joined, or kIDontKnow
  bool refused = false;     ///< kept_answer is kIDontKnow
  std::string reason;       ///< why it was refused; empty otherwise
  bool partial_before = false;
  bool partial_after = false;
};

/// True when `labels` hold at least one supported and one conflicting claim.
bool partial_hallucination(std::span<const ClaimLabel> labels);

/// Grounds every answer as the file comment says; the verifier sees all claims in one call.
std::vector<GroundedAnswer> ground_answers(const verification::ClaimVerifier& verifier, std::span<const AnswerToGround> answers,
                                           const GroundingThresholds& thresholds);

/// One output line:
///   {"id", "answer": kept answer, "refused", "reason"?, "partial_hallucination": {"before", "after"},
///    "claims": [{"index", "text", "begin", "end", "label", "confidence",
///                "probabilities": {"support": s, "conflict": c}, "kept",
///                "citations": [{"doc_id", "probability", "sentences": [{"index", "text", "score"}]}],
///                "failed"?: {doc_id: why the verifier could not judge that passage}}]}
nlohmann::ordered_json grounded_answer_json(const GroundedAnswer& grounded);

}  // namespace claimrag::grounding
