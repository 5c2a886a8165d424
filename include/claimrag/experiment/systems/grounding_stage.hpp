#pragma once
// The claim-level grounding stage of the reproduction (after "verification"):
//  1. builds the grounding benchmark (grounding/benchmark.hpp) from SciFact's train claims and
//     from its dev claims (the BEIR test claims), decoys from BM25 over the abstracts;
//  2. grounds the train benchmark with the cross-fitted oracle verifier (each train claim judged
//     by a model that never saw its family) and chooses τ_s, τ_c and refusal_mean's τ_m there
//     (grounding/evaluation.hpp's choose_settings, max conflict rate grounding.max_conflict_rate);
//  3. grounds the dev benchmark once with the saved oracle verifier (trained on train claims
//     only) at those thresholds and scores grounding and its baselines on the full set and on the
//     frozen sample (grounding.sample_size answers, seeded);
//  4. measures `ground`'s defaults for users (the free-text verifier at the configuration's τ_s,
//     τ_c, γ and verdict gate) on both benchmarks built again with unrelated claims appended, the
//     train one judged by the cross-fitted free-text verifier, and writes that benchmark's claim
//     scores for the choice of those defaults (scripts/research/ground_defaults.py).
// Writes grounding/dev_answers.jsonl (`claimrag ground`'s input: id, answer, context doc ids),
// grounding/dev_gold.jsonl (each answer's claims with SciFact claim ids and gold labels, and
// whether it is in the sample), grounding/dev_grounded.jsonl (`ground`'s output), tables/grounding.tsv
// (the seed's Table 1 shape, the seed's numbers from grounding.paper beside ours) and
// tables/grounding_pr.tsv (precision and recall of kept claims over the thresholds, train and dev);
// grounding/train_free_text_claims.jsonl (step 4's claim scores); results sections
// grounding_<method> (full set), grounding_sample_<method> (sample), grounding_choice
// (thresholds, benchmark sizes, train scores at the choice), grounding_free_text_train,
// grounding_free_text and grounding_free_text_unfiltered (step 4).

#include <filesystem>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"

namespace claimrag::experiment {

class SciFactVerifiers;

void run_grounding_stage(const ExperimentConfig& config, SciFactVerifiers& data, const std::filesystem::path& work,
                         Results& results);

}  // namespace claimrag::experiment
