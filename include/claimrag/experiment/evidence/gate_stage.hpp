#pragma once
// The gate as the command line and the reproduction run it: confidence signals over the judged
// claims of a split, threshold sweeps, risk–coverage summaries and per-claim decisions.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/gate/risk_coverage.hpp"
#include "claimrag/gate/signals.hpp"
#include "claimrag/gate/sweep.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::experiment {

struct GateRequest {
  std::filesystem::path data;        ///< BEIR folder (qrels)
  std::string split;                 ///< whose judged claims are gated
  std::filesystem::path system_run;  ///< a claim with no relevant document in its top-k is a hallucination
  std::size_t hallucination_depth = 10;
  std::filesystem::path bm25_run, dense_run, rerank_run, signal_file;
  std::map<std::string, double> evidence_f1;    ///< claim id -> evidence token F1 (may be empty)
  std::map<std::string, double> verifier_top1;  ///< claim id -> best verifier score (may be empty)
  /// extract-evidence's JSON Lines: when set, fills evidence_f1 (token F1@2 against the
  /// pseudo-gold, experiment/evidence/evidence_signals.hpp) and verifier_top1 from it.
  std::filesystem::path evidence;
  std::size_t min_sentence_characters = 20;  ///< the sentence splitter's, for the pseudo-gold of `evidence`
};

/// The loaded inputs of a gate: qrels, runs, per-claim hallucination flags. A claim of the split
/// without lines in the system run has an empty ranking: not answerable, refused at every
/// threshold, and a hallucination if a coverage curve answers it.
class GateData {
 public:
  explicit GateData(GateRequest request);
  /// Every judged claim of the split with `signal`'s value, its hallucination flag and F1.
  [[nodiscard]] std::vector<gate::ClaimOutcome> outcomes(const std::string& signal) const;
  [[nodiscard]] const std::vector<std::string>& claim_ids() const { return claim_ids_; }

 private:
  GateRequest request_;
  std::vector<std::string> claim_ids_;
  std::vector<bool> hallucinated_;
  std::vector<bool> answerable_;  ///< false when the system run retrieved nothing for the claim
  std::vector<run::Run> runs_;  ///< each run file named, read once
  std::optional<std::size_t> bm25_, dense_, rerank_;  ///< positions in runs_ of the signals' runs
  std::optional<std::map<std::string, double>> external_;
};

/// Appends the sweep rows of one signal to a TSV table with columns signal, threshold, answered,
/// answer_rate, refusal_rate, hallucination_rate, evidence_f1 (six decimals).
void append_sweep(const std::string& signal, const std::vector<gate::SweepRow>& rows, std::vector<std::vector<std::string>>& table);
const std::vector<std::string>& sweep_columns();

/// One row per signal: signal, aurc, risk@30/50/70% coverage, coverage@5/10% risk.
void append_risk_coverage(const std::string& signal, const gate::RiskCoverage& curve, std::vector<std::vector<std::string>>& table);
const std::vector<std::string>& risk_coverage_columns();

/// One JSON line per claim: answered or refused, with the signal, its value and the threshold.
void write_decisions(const std::vector<gate::ClaimOutcome>& claims, const std::string& signal, double threshold,
                     const std::filesystem::path& out);

}  // namespace claimrag::experiment
