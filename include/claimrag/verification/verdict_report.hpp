#pragma once
// A claim's verdict as people and scripts read it: `claimrag verify --claim` prints it as text,
// or with `--json` as one JSON object:
//   {"claim": "...", "not_enough_evidence": false,
//    "documents": [{"doc_id": "d1", "title": "...", "rank": 1, "retrieval_score": 7.5,
//                   "label": "SUPPORT",
//                   "probabilities": {"SUPPORT": 0.8, "CONTRADICT": 0.1, "NOT_ENOUGH_INFO": 0.1},
//                   "rationale": [{"sentence": 2, "text": "...", "score": 0.93}],
//                   "truncated_sentences": 0, "nei_threshold": 0.4}],
//    "truncated_sentences": 0}
// ("nei_threshold" only for a verifier deciding by one, and the text prints the rule beside each
// verdict) plus "reason" when the claim was judged against no document or has no word. `not_enough_evidence` is true
// when no document was labelled SUPPORT or CONTRADICT.

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// {"SUPPORT": p, "CONTRADICT": p, "NOT_ENOUGH_INFO": p}.
nlohmann::ordered_json probabilities_json(const std::array<double, label_count>& probabilities);

/// The selected sentences of `document`, best first: [{"sentence", "text", "score"}]. The
/// verdict must score every sentence in order (verify_claims checks it).
nlohmann::ordered_json rationale_json(const EvidenceDocument& document, const DocumentVerdict& verdict);

/// A grounding checker's chunks in document order: [{"text", "score"}] (score: P(supported)).
nlohmann::ordered_json chunks_json(const std::vector<ChunkScore>& chunks);

/// True when no document verdict is SUPPORT or CONTRADICT (also when there is no document).
bool not_enough_evidence(const ClaimVerdict& verdict);

/// The JSON object of the file comment; `verdict` is verify_claims' verdict on `input`.
nlohmann::ordered_json claim_verdict_json(const VerificationInput& input, const ClaimVerdict& verdict);

/// The same for people: per document its label, probabilities and cited sentences, then one
/// closing "Verdict:" line, "not enough evidence" when no document supports or contradicts.
std::string claim_verdict_text(const VerificationInput& input, const ClaimVerdict& verdict);

}  // namespace claimrag::verification
