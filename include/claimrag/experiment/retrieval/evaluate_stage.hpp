#pragma once
// Evaluating a run file against a split and writing the metrics as TSV and JSON.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/metrics/ranking.hpp"

namespace claimrag::experiment {

/// `<prefix>.tsv` and `<prefix>.json` for an --out given as `x`, `x.tsv` or `x.json`.
std::filesystem::path output_prefix(const std::filesystem::path& out);

/// Metrics of `evaluation` as JSON: means under "metrics", per-query values under "per_query",
/// and the counts of queries left out or missing.
nlohmann::json evaluation_to_json(const metrics::Evaluation& evaluation, const std::string& run_tag,
                                  const std::string& split);

/// Writes `<prefix>.tsv` (one row per query, then a row "mean") and `<prefix>.json`.
void write_evaluation(const metrics::Evaluation& evaluation, const std::string& run_tag,
                      const std::string& split, const std::filesystem::path& out);

}  // namespace claimrag::experiment
