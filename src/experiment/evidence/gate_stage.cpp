#include "claimrag/experiment/evidence/gate_stage.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/experiment/evidence/evidence_signals.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/io/json_output.hpp"

namespace claimrag::experiment {
namespace {

bool has_relevant_in_top(const run::Ranking& ranking, const std::map<std::string, int>& judgments, std::size_t depth) {
  for (std::size_t i = 0; i < std::min(depth, ranking.documents.size()); ++i) {
    const auto found = judgments.find(ranking.documents[i].doc_id);
    if (found != judgments.end() && found->second > 0) return true;
  }
  return false;
}

}  // namespace

GateData::GateData(GateRequest request) : request_(std::move(request)) {
  if (!request_.evidence.empty()) {
    auto signals = evidence_signals(request_.data, request_.split, request_.evidence, request_.min_sentence_characters);
    request_.evidence_f1 = std::move(signals.token_f1);
    request_.verifier_top1 = std::move(signals.verifier_top1);
  }
  const auto qrels = dataset::load_split(request_.data, request_.split);
  // The runs named, each file read once (the reproduction's system is its reranked run), in
  // parallel.
  std::vector<std::filesystem::path> files;
  const auto position_of = [&](const std::filesystem::path& path) -> std::optional<std::size_t> {
    if (path.empty()) return std::nullopt;
    const auto found = std::find(files.begin(), files.end(), path);
    if (found != files.end()) return static_cast<std::size_t>(found - files.begin());
    files.push_back(path);
    return files.size() - 1;
  };
  const auto system_at = position_of(request_.system_run);
  bm25_ = position_of(request_.bm25_run);
  dense_ = position_of(request_.dense_run);
  rerank_ = position_of(request_.rerank_run);
  if (!system_at) throw UsageError("gate: no system run to judge answers by");
  runs_ = run::read_trec_runs(files);
  const run::Run& system = runs_[*system_at];
  claim_ids_ = qrels.query_order;
  for (const auto& id : claim_ids_) {
    // No lines in the run: the system retrieved nothing for the claim (see run/run.hpp).
    const run::Ranking* ranking = system.find(id);
    const bool empty = ranking == nullptr || ranking->documents.empty();
    answerable_.push_back(!empty);
    hallucinated_.push_back(empty || !has_relevant_in_top(*ranking, qrels.judgments.at(id), request_.hallucination_depth));
  }
  if (!request_.signal_file.empty()) {
    external_ = gate::read_signal_file(request_.signal_file.string());
    // Checked here, where the file's name is known, rather than when a signal first reads it.
    std::vector<std::string> missing;
    for (const auto& id : claim_ids_) {
      if (!external_->contains(id)) missing.push_back(id);
    }
    if (!missing.empty()) {
      throw DataError(request_.signal_file.string(),
                      "has no value for claim " + missing.front() +
                          (missing.size() > 1 ? " (and " + std::to_string(missing.size() - 1) + " more claims of split " +
                                                    request_.split + ")"
                                              : std::string()));
    }
  }
}

std::vector<gate::ClaimOutcome> GateData::outcomes(const std::string& signal) const {
  const auto run_at = [&](const std::optional<std::size_t>& at) { return at ? &runs_[*at] : nullptr; };
  const gate::SignalInputs inputs{run_at(bm25_), run_at(dense_), run_at(rerank_),
                                  request_.verifier_top1.empty() ? nullptr : &request_.verifier_top1,
                                  external_ ? &*external_ : nullptr};
  const auto values = gate::signal_values(signal, inputs, claim_ids_);
  std::vector<gate::ClaimOutcome> claims;
  for (std::size_t i = 0; i < claim_ids_.size(); ++i) {
    gate::ClaimOutcome claim{claim_ids_[i], values[i], hallucinated_[i], {}, answerable_[i]};
    const auto f1 = request_.evidence_f1.find(claim_ids_[i]);
    if (f1 != request_.evidence_f1.end()) claim.evidence_f1 = f1->second;
    claims.push_back(std::move(claim));
  }
  return claims;
}

const std::vector<std::string>& sweep_columns() {
  static const std::vector<std::string> columns{"signal", "threshold", "answered", "answer_rate", "refusal_rate",
                                                "hallucination_rate", "evidence_f1"};
  return columns;
}

void append_sweep(const std::string& signal, const std::vector<gate::SweepRow>& rows, std::vector<std::vector<std::string>>& table) {
  for (const auto& row : rows) {
    table.push_back({signal, io::fixed(row.threshold, 6), std::to_string(row.answered), io::fixed(row.answer_rate, 6),
                     io::fixed(row.refusal_rate, 6), io::fixed(row.hallucination_rate, 6), io::fixed(row.evidence_f1, 6)});
  }
}

const std::vector<std::string>& risk_coverage_columns() {
  static const std::vector<std::string> columns{"signal", "aurc", "risk@30%", "risk@50%", "risk@70%", "coverage@risk5%",
                                                "coverage@risk10%"};
  return columns;
}

void append_risk_coverage(const std::string& signal, const gate::RiskCoverage& curve, std::vector<std::vector<std::string>>& table) {
  table.push_back({signal, io::fixed(curve.aurc, 6), io::fixed(curve.risk_at_30, 6), io::fixed(curve.risk_at_50, 6),
                   io::fixed(curve.risk_at_70, 6), io::fixed(curve.coverage_at_risk_5, 6), io::fixed(curve.coverage_at_risk_10, 6)});
}

void write_decisions(const std::vector<gate::ClaimOutcome>& claims, const std::string& signal, double threshold,
                     const std::filesystem::path& out) {
  std::string lines;
  for (const auto& claim : claims) {
    const bool answered = gate::answers(claim, threshold);
    nlohmann::json line = {{"claim_id", claim.claim_id},
                           {"decision", answered ? "answer" : "refuse"},
                           {"signal", signal},
                           {"value", claim.signal},
                           {"threshold", threshold}};
    if (!claim.answerable) {
      line["reason"] = "no document retrieved";
    } else if (!answered) {
      line["reason"] = signal + " " + io::fixed(claim.signal, 6) + " < threshold " + io::fixed(threshold, 6);
    }
    lines += io::json_text(line, out.string()) + "\n";
  }
  io::write_file_atomically(out, lines);
}

}  // namespace claimrag::experiment
