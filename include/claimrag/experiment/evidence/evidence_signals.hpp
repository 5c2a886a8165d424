#pragma once
// What the gate takes from an evidence selection: per claim, the token F1@2 of its selected
// sentences against the pseudo-gold (the evidence_f1 column of a sweep) and the verifier's score
// of its best sentence (the verifier_top1 signal).

#include <map>
#include <string>
#include <vector>

#include "claimrag/evidence/selection.hpp"
#include "claimrag/experiment/evidence/evidence_evaluation.hpp"

namespace claimrag::experiment {

struct EvidenceSignals {
  std::map<std::string, double> token_f1;       ///< claims the evaluation scored
  std::map<std::string, double> verifier_top1;  ///< every claim of `selections`; 0 for an empty selection
};

/// Both maps from an evaluation of `selections` and the selections themselves.
EvidenceSignals evidence_signals(const EvidenceEvaluation& evaluation, const std::vector<evidence::ClaimEvidence>& selections);

/// Reads `evidence` (extract-evidence's JSON Lines), scores it on `split` of `data` as
/// evaluate_evidence does, and returns both maps: what `gate --evidence` needs.
EvidenceSignals evidence_signals(const std::filesystem::path& data, const std::string& split,
                                 const std::filesystem::path& evidence, std::size_t min_sentence_characters);

}  // namespace claimrag::experiment
