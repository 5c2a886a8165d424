#pragma once
// The abstention stage of the reproduction: every abstention strategy of the project on the same
// SciFact claims, open setting (each claim's BM25 top k abstracts, k as the verification stage
// chose it on train), one answer per claim and one definition of unsafe
// (abstention/claim_answer.hpp), so that the strategies differ only in which claims they answer.
//
// Strategies, each a confidence in the claim's answer (abstention/strategy_confidence.hpp):
//   bm25_top1   BM25's top-1 score: the paper's gate
//   combined    the gate's calibrated combined signal (experiment/retrieval/combined_stage.hpp)
//   verifier    the open verifier's P(verdict) for the answering abstract
//   grounding   claim-level grounding's support (or conflict) for the verdict
//   ciber       multi-probe interrogation's fused claim-level confidence in the verdict (α as chosen
//               by the interrogation stage on train)
//   sure        SURE's selective score for the verdict (the sufficiency stage's aggregator)
//   verifier_citation  P(verdict) × the citation score (claim_answer.hpp): the answer is safe only
//               when the verdict is right and a cited sentence is a gold rationale, and these are
//               the verifier's probabilities of each
// Dev claims are answered by the open verifier and judged for grounding, CIBER and SURE by the
// oracle-setting verifier, as their own stages judge dev; train claims by the cross-fitted versions
// of both (each claim by models that never saw its family), so that the operating points'
// thresholds, chosen on train, are chosen on out-of-sample confidences. Two train confidences are
// in-sample: the combined signal (fitted on the train claims) and SURE's aggregator (fitted on the
// sufficiency benchmark's train and dev splits, built from train claims).
//
// Writes abstention/{train,dev}_claims.tsv (abstention/claims_table.hpp: what
// `claimrag compare-abstention` reads), abstention/dev_answers.jsonl (every dev claim's answer and
// its gold verdict), and the comparison (abstention/comparison.hpp) as tables/abstention.tsv,
// abstention_curves.tsv, abstention_operating_points.tsv and abstention.json. Results: abstention,
// abstention_<strategy>, abstention_oracle.

#include "claimrag/experiment/stage.hpp"

namespace claimrag::experiment {

/// Runs the stage; needs the verification, gate, interrogation and sufficiency stages' outputs.
void run_abstention_stage(StageContext& context);

}  // namespace claimrag::experiment
