#pragma once
// The gate as the command line and the reproduction run it: one signal over the judged claims of
// a split, a sweep of thresholds, and with one threshold the per-claim decisions.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/gate/sweep.hpp"
#include "claimrag/gate/signals.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

struct GateRequest {
  std::filesystem::path data;           ///< BEIR folder (qrels)
  std::string split;                    ///< whose judged claims are gated
  std::filesystem::path system_run;     ///< the answers' retrieval: hallucinated = no relevant doc in its top-k
  std::size_t hallucination_depth = 10;
  std::string signal;
  std::string thresholds;               ///< gate::parse_thresholds syntax
  std::filesystem::path bm25_run, dense_run, rerank_run, signal_file;
  /// claim id -> evidence token F1 (optional column of the sweep).
  const std::map<std::string, double>* evidence_f1 = nullptr;
  const std::map<std::string, double>* verifier_top1 = nullptr;
};

/// The claims of the split with their signal, hallucination flag and evidence F1.
std::vector<gate::ClaimOutcome> gate_outcomes(const GateRequest& request);

/// Writes the sweep as TSV (threshold, answered, answer_rate, refusal_rate, hallucination_rate,
/// evidence_f1) with six decimals.
void write_sweep(const std::vector<gate::SweepRow>& rows, const std::filesystem::path& out);

/// Writes one JSON line per claim: answered or refused, the signal, its value and the threshold.
void write_decisions(const std::vector<gate::ClaimOutcome>& claims, const std::string& signal, double threshold,
                     const std::filesystem::path& out);

}  // namespace claimrag::experiment
