#pragma once
// The paper's tables (TSV, the paper's layout), the numbers behind them in the results, and
// REPORT.md: each number beside the paper's, with the difference.

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/statistics.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/evidence/gate_stage.hpp"
#include "claimrag/experiment/paper.hpp"
#include "claimrag/experiment/reproduce.hpp"

namespace claimrag::experiment {

/// Table 1's numbers as a results section.
std::map<std::string, double> table1_results(const dataset::DatasetStatistics& statistics);

/// table5.tsv (nDCG@10, Recall@10, Recall@100 per system) and table6.tsv (nDCG@5/10/20/50), a row
/// for each of `systems` that `results` holds.
void write_ranking_tables(const Results& results, const std::vector<std::string>& systems, const std::filesystem::path& folder);

/// table8.tsv (the configured signal and thresholds) and risk_coverage.tsv (a row per compared
/// signal), with their numbers filed under results["table8"] and results["risk_coverage"].
void write_gate_tables(const GateData& data, const ExperimentConfig& config, const std::filesystem::path& folder,
                       Results& results);

/// table7.tsv: exact-match and token F1 of the top-1 and top-2 sentences against the pseudo-gold
/// (the paper's rows), and beside them the gold-rationale F1, for the pseudo-gold-trained and the
/// gold-trained verifier where results hold them ("evidence", "evidence_gold"); the paper's
/// "evidence" numbers first when it has them.
void write_table7(const Results& results, const PaperNumbers& paper, const std::filesystem::path& folder);

/// table9.tsv: the wall time of every stage and the total.
void write_table9(const std::vector<StageTiming>& timings, const std::filesystem::path& folder);

/// REPORT.md: every number with the paper's value (from `paper`), ours, the difference, and the
/// verdict against config.expected (with its "why").
void write_report(const Reproduction& reproduction, const ExperimentConfig& config, const PaperNumbers& paper,
                  const std::filesystem::path& path);

}  // namespace claimrag::experiment
