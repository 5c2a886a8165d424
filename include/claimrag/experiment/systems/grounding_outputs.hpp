#pragma once
// The files of the grounding stage (experiment/systems/grounding_stage.hpp): the benchmark as `ground`
// reads it, its gold labels, and the two tables.

#include <cstddef>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "claimrag/experiment/expectations.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/grounding/benchmark.hpp"
#include "claimrag/grounding/evaluation.hpp"

namespace claimrag::experiment {

/// grounding/<name>_answers.jsonl ({"id", "answer", "context": [doc ids]}) and
/// grounding/<name>_gold.jsonl ({"id", "in_sample", "gold_documents", "claims": [{"claim_id", "text", "gold"}]}).
void write_benchmark_files(const grounding::Benchmark& benchmark, std::span<const std::size_t> sample,
                           const std::filesystem::path& folder, const std::string& name);

/// tables/grounding.tsv: a row per method (ours from results' grounding_sample_<method> and
/// grounding_<method>), then the seed's rows from `paper`: support and conflict rates and the
/// partial hallucination count on the sample, by gold and by the verifier's labels, then the
/// full set's rates, precision, recall and over-refusals.
void write_grounding_table(const Results& results, const PaperNumbers& paper, const std::filesystem::path& path);

/// One precision–recall curve: the metrics of a method at each value of the swept threshold.
struct PrCurve {
  std::string split;
  std::string method;
  std::string threshold;  ///< which threshold is swept ("support" for τ_s, "mean_support" for τ_m)
  std::vector<double> values;
  std::vector<std::map<std::string, double>> metrics;
};

/// tables/grounding_pr.tsv: split, method, threshold, value, precision, recall, conflict_rate,
/// claims_kept, partial_hallucination_rate.
void write_pr_table(std::span<const PrCurve> curves, const std::filesystem::path& path);

}  // namespace claimrag::experiment
