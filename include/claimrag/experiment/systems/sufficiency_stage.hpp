#pragma once
// The sufficiency stage of the reproduction: builds the SciFact sufficiency benchmark
// (sufficiency/benchmark.hpp), scores its pairs (train and dev examples with the cross-fitted
// oracle verifier, test examples with the saved oracle verifier), and runs SURE-RAG with its
// baselines (sufficiency/evaluation.hpp). Writes sufficiency/benchmark.jsonl,
// models/sufficiency_aggregator.json, tables/sufficiency.tsv (a row per method),
// tables/sufficiency_counterfactual.tsv and tables/sufficiency_paper.tsv (SURE-RAG's published
// HotpotQA-RAG v3 numbers beside ours: another benchmark, shown side by side, not compared), and
// results sections sufficiency (benchmark, choices, artifact ratio, counterfactuals) and
// sufficiency_<method>.

#include <filesystem>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/expectations.hpp"

namespace claimrag::experiment {

class SciFactVerifiers;

void run_sufficiency_stage(const ExperimentConfig& config, SciFactVerifiers& data, const std::filesystem::path& work,
                           Results& results);

}  // namespace claimrag::experiment
