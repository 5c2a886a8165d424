#pragma once
// The interrogation stage of the reproduction: multi-probe interrogation (CIBER) with the built-in
// responder, scored on SciFact against gold Support / Refute / Neutral.
//
// Pairs (interrogation/scifact_pairs.hpp): each claim's cited abstracts with their gold label
// (NEI → Neutral) plus its uncited BM25 top-k abstracts as Neutral. α is chosen on the train
// claims' pairs, answered by the cross-fitted verifier (each claim by a model that never saw its
// family), by the meta-verdict's macro-F1 (ties: the first in alpha_grid). The dev claims' pairs
// are answered once by the oracle verifier (trained on train only) and scored in the seed's two
// table shapes, beside two baselines the seed does not have: the verifier's own label (its NEI
// threshold θ applied) and its most probable label (p_O answered at temperature 0).
//
// Writes tables/interrogation_strategies.tsv (RAG / AG / CF / ALL), tables/interrogation_fusion.tsv
// (RAG / WP / WIG / WBU / ALL), both with CIBER's published "All" rows (interrogation.paper),
// tables/interrogation_gain.tsv (paired cluster-bootstrap intervals of the macro-F1 gains) and
// interrogation/dev_verdicts.tsv (every dev pair: gold and each system's verdict). Results:
// interrogation_<system>, interrogation_cv, interrogation_gain_<comparison>, interrogation_pairs.

#include "claimrag/experiment/stage.hpp"

namespace claimrag::experiment {

/// Runs the stage; needs the verification stage's model and choices.
void run_interrogation_stage(StageContext& context);

}  // namespace claimrag::experiment
