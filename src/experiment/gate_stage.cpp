#include "claimrag/experiment/gate_stage.hpp"

#include <nlohmann/json.hpp>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::experiment {
namespace {

std::optional<run::Run> read_optional_run(const std::filesystem::path& path) {
  if (path.empty()) return std::nullopt;
  return run::read_trec_run(path);
}

bool has_relevant_in_top(const run::Ranking* ranking, const std::map<std::string, int>& judgments, std::size_t depth) {
  if (ranking == nullptr) return false;
  for (std::size_t i = 0; i < std::min(depth, ranking->documents.size()); ++i) {
    const auto found = judgments.find(ranking->documents[i].doc_id);
    if (found != judgments.end() && found->second > 0) return true;
  }
  return false;
}

}  // namespace

std::vector<gate::ClaimOutcome> gate_outcomes(const GateRequest& request) {
  const auto qrels = dataset::load_split(request.data, request.split);
  const run::Run system = run::read_trec_run(request.system_run);
  const auto bm25 = read_optional_run(request.bm25_run);
  const auto dense = read_optional_run(request.dense_run);
  const auto rerank = read_optional_run(request.rerank_run);
  std::optional<std::map<std::string, double>> external;
  if (!request.signal_file.empty()) external = gate::read_signal_file(request.signal_file.string());
  const gate::SignalInputs inputs{bm25 ? &*bm25 : nullptr, dense ? &*dense : nullptr, rerank ? &*rerank : nullptr,
                                  request.verifier_top1, external ? &*external : nullptr};
  const auto values = gate::signal_values(request.signal, inputs, qrels.query_order);
  std::vector<gate::ClaimOutcome> claims;
  for (std::size_t i = 0; i < qrels.query_order.size(); ++i) {
    const auto& id = qrels.query_order[i];
    const run::Ranking* ranking = system.find(id);
    if (ranking == nullptr) throw DataError(request.system_run.string() + ": no ranking for claim " + id);
    gate::ClaimOutcome claim{id, values[i], !has_relevant_in_top(ranking, qrels.judgments.at(id), request.hallucination_depth), {}};
    if (request.evidence_f1 != nullptr) {
      const auto found = request.evidence_f1->find(id);
      if (found != request.evidence_f1->end()) claim.evidence_f1 = found->second;
    }
    claims.push_back(std::move(claim));
  }
  return claims;
}

void write_sweep(const std::vector<gate::SweepRow>& rows, const std::filesystem::path& out) {
  io::Table table{{"threshold", "answered", "answer_rate", "refusal_rate", "hallucination_rate", "evidence_f1"}, {}};
  for (const auto& row : rows) {
    table.rows.push_back({io::fixed(row.threshold, 6), std::to_string(row.answered), io::fixed(row.answer_rate, 6),
                          io::fixed(row.refusal_rate, 6), io::fixed(row.hallucination_rate, 6), io::fixed(row.evidence_f1, 6)});
  }
  io::write_tsv(table, out);
}

void write_decisions(const std::vector<gate::ClaimOutcome>& claims, const std::string& signal, double threshold,
                     const std::filesystem::path& out) {
  std::string lines;
  for (const auto& claim : claims) {
    const bool answered = claim.signal >= threshold;
    nlohmann::json line = {{"claim_id", claim.claim_id},
                           {"decision", answered ? "answer" : "refuse"},
                           {"signal", signal},
                           {"value", claim.signal},
                           {"threshold", threshold}};
    if (!answered) line["reason"] = signal + " " + io::fixed(claim.signal, 6) + " < threshold " + io::fixed(threshold, 6);
    lines += line.dump() + "\n";
  }
  io::write_file_atomically(out, lines);
}

}  // namespace claimrag::experiment
