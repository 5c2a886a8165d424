#include "claimrag/experiment/evidence/evidence_signals.hpp"

namespace claimrag::experiment {

EvidenceSignals evidence_signals(const EvidenceEvaluation& evaluation, const std::vector<evidence::ClaimEvidence>& selections) {
  EvidenceSignals signals;
  for (std::size_t i = 0; i < evaluation.claim_ids.size(); ++i) {
    const auto f1 = evaluation.per_claim[i].find("token_f1@2");
    if (f1 != evaluation.per_claim[i].end()) signals.token_f1[evaluation.claim_ids[i]] = f1->second;
  }
  for (const auto& claim : selections) {
    signals.verifier_top1[claim.claim_id] = claim.selected.empty() ? 0.0 : claim.selected.front().score;
  }
  return signals;
}

EvidenceSignals evidence_signals(const std::filesystem::path& data, const std::string& split,
                                 const std::filesystem::path& evidence, std::size_t min_sentence_characters) {
  const auto evaluation = evaluate_evidence({data, split, evidence, {}, min_sentence_characters});
  return evidence_signals(evaluation, evidence::read_evidence(evidence));
}

}  // namespace claimrag::experiment
