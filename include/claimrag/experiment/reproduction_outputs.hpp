#pragma once
// What a reproduction writes once its stages have run, from the numbers alone: tables 5, 6, 7
// and 9, results.json, meta.json and REPORT.md. Kept apart from the stages so that running and
// reporting change independently.

#include <filesystem>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/experiment/reproduce.hpp"

namespace claimrag::experiment {

/// The "metrics" (section -> metric -> value) and "timings" of results.json.
nlohmann::json results_to_json(const Reproduction& reproduction);

/// Writes into `folder`: tables/table5.tsv and table6.tsv (the systems results hold),
/// tables/table7.tsv (when an evidence stage ran), tables/table9.tsv, results.json, meta.json and
/// REPORT.md (with reproduction.check's verdicts).
void write_reproduction_outputs(const Reproduction& reproduction, const ExperimentConfig& config, const PaperNumbers& paper,
                                const std::filesystem::path& folder);

}  // namespace claimrag::experiment
