#pragma once
// The stages `reproduce` can run (experiment/stage.hpp), and the choice of them a configuration
// makes. In their default order:
//   statistics     Table 1 and the token lengths (tables/table1.*, tables/token_lengths.tsv)
//   bm25           BM25 index and run of the test claims (models/bm25, runs/bm25.trec)
//   dense          dense model and run (models/dense, runs/dense.trec)
//   fusion         RRF of the two runs (runs/hybrid.trec)
//   rerank         reranker trained on the train split, hybrid run reranked (runs/hybrid_rerank.trec)
//   training_runs  the train split's claims through the same pipeline (runs/train/), for the gate
//   evidence       verifier trained on the pseudo-gold, evidence of the reranked top-10 (evidence/evidence.*)
//   evidence_gold  verifier trained on SciFact's gold rationales (needs data.original)
//   gate           Table 8, risk–coverage of every compared signal, the combined signal
//   verification   the claim verifier, oracle and open, on SciFact's dev claims (needs data.original)
//   checkpoint_verification  the rule of the NLI checkpoint verifier chosen on train (only when
//                  verification.checkpoint.verifier names one; needs data.original)
//   grounding      claim-level selective grounding on a SciFact answer benchmark (needs data.original)
//   interrogation  multi-probe interrogation (CIBER) with the verifier as responder (needs data.original)
//   sufficiency    evidence sufficiency (SURE-RAG) on a SciFact benchmark (needs data.original)
//   lexical_ranker stemmed BM25 views and a listwise ranker trained on the train split (runs/lexical_ranker.trec)
//   abstention     every abstention strategy compared on the same claims (needs data.original)
// The evidence stages score against SciFact's gold rationales too when data.original is set. The
// stages of the systems built on the verifier live in pipeline_systems.cpp.

#include <string>
#include <vector>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/stage.hpp"

namespace claimrag::experiment {

Stage statistics_stage();
Stage bm25_stage();
Stage dense_stage();
Stage fusion_stage();
Stage rerank_stage();
Stage training_runs_stage();
/// `rationales`: "pseudo" (section "evidence") or "gold" (section "evidence_gold").
Stage evidence_stage(const std::string& rationales);
/// Reads the runs and, for the signals config.gate names that need them, the evidence.
Stage gate_stage(const ExperimentConfig& config);
/// The systems on the verifier; every one but verification reads the oracle model it saves.
Stage verification_stage();
Stage checkpoint_verification_stage();
Stage grounding_stage();
Stage interrogation_stage();
Stage sufficiency_stage();
Stage abstention_stage();
/// Beyond the paper's retrieval (experiment/retrieval/lexical_ranker_stage.hpp).
Stage lexical_ranker_stage();

/// Every stage name, in the default order.
const std::vector<std::string>& stage_names();

/// The stages of config.stages in its order, or, when it is empty, every stage in the default
/// order that the data allows (evidence_gold only with data.original). UsageError for an unknown
/// name, for evidence_gold without data.original, for a stage reading what no earlier one writes
/// (check_stage_order), and for no data.beir.
std::vector<Stage> plan_stages(const ExperimentConfig& config);

}  // namespace claimrag::experiment
