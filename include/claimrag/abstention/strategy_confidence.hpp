#pragma once
// Each system's confidence in one given answer verdict (SUPPORT or CONTRADICT), so that every
// system can rank the same answers (claim_answer.hpp):
//
//   grounding     the claim judgement's s = max P(SUPPORT) for a SUPPORT answer, c = max
//                 P(CONTRADICT) for a CONTRADICT answer (grounding/claim_judgement.hpp): the
//                 strength with which the context supports the answer's claim about the evidence.
//   interrogation CIBER's claim-level vote for the verdict: the meta-confidence CS_M of the
//                 abstracts whose meta-verdict is the verdict, over that of every abstract with a
//                 Support or Refute meta-verdict (interrogation/claim_verdict.hpp's s / (s + r));
//                 0 when every abstract is Neutral.
//   sufficiency   SURE's selective score for the verdict: P(Supported) − β·u for SUPPORT,
//                 P(Refuted) − β·u for CONTRADICT (sufficiency/aggregator.hpp; SURE itself only
//                 answers Supported, and the refuting side is its mirror image).

#include <span>

#include "claimrag/grounding/claim_judgement.hpp"
#include "claimrag/interrogation/claim_verdict.hpp"
#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::abstention {

/// InternalError for a verdict other than SUPPORT or CONTRADICT, in each of the three.
double grounding_confidence(const grounding::ClaimJudgement& judgement, verification::Label verdict);

/// `verdict` must list every interrogated abstract of the claim (claim_level_verdicts with
/// `listed` at least the claim's abstract count).
double interrogation_confidence(const interrogation::ClaimLevelVerdict& verdict, verification::Label answer);

double sufficiency_confidence(const sufficiency::SurePrediction& prediction, double beta, verification::Label verdict);

}  // namespace claimrag::abstention
