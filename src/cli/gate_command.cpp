#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/gate_stage.hpp"
#include "claimrag/gate/thresholds.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_gate_command(CLI::App& root) {
  struct Options {
    experiment::GateRequest request;
    std::string data, system_run, bm25_run, dense_run, rerank_run, signal_file, out, decisions;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand("gate", "Answer or refuse each claim by a confidence signal; sweep thresholds");
  add_data_option(*command, options->data);
  command->add_option("--split", options->request.split, "Split whose judged claims are gated")->required();
  command->add_option("--run", options->system_run, "The system's run: a claim without a relevant document in its top-10 is a hallucination")
      ->required();
  command->add_option("--signal", options->request.signal, "Confidence signal: " + [] {
    std::string names;
    for (const auto& name : gate::signal_names()) names += (names.empty() ? "" : ", ") + name;
    return names;
  }())->required();
  command->add_option("--thresholds", options->request.thresholds, "List 10,15,20 | range start:stop:step | coverage:0.3,0.5")->required();
  command->add_option("--bm25-run", options->bm25_run, "BM25 run (for bm25_* and sparse_dense_* signals)");
  command->add_option("--dense-run", options->dense_run, "Dense run (for sparse_dense_* signals)");
  command->add_option("--rerank-run", options->rerank_run, "Reranked run (for rerank_top1)");
  command->add_option("--signal-file", options->signal_file, "TSV claim_id<TAB>value (for the signal 'file')");
  command->add_option("--out", options->out, "Sweep TSV to write")->required();
  command->add_option("--decisions", options->decisions, "Per-claim decisions JSONL (needs exactly one threshold)");
  command->callback([options] {
    auto request = options->request;
    request.data = options->data;
    request.system_run = options->system_run;
    request.bm25_run = options->bm25_run;
    request.dense_run = options->dense_run;
    request.rerank_run = options->rerank_run;
    request.signal_file = options->signal_file;
    const auto claims = experiment::gate_outcomes(request);
    std::vector<double> values;
    for (const auto& claim : claims) values.push_back(claim.signal);
    const auto thresholds = gate::resolve_thresholds(gate::parse_thresholds(request.thresholds), values);
    if (!options->decisions.empty() && thresholds.size() != 1) {
      throw UsageError("--decisions needs exactly one threshold, got " + std::to_string(thresholds.size()));
    }
    experiment::write_sweep(gate::sweep(claims, thresholds), options->out);
    if (!options->decisions.empty()) experiment::write_decisions(claims, request.signal, thresholds.front(), options->decisions);
    spdlog::info("{} claims, {} thresholds -> {}", claims.size(), thresholds.size(), options->out);
  });
}

}  // namespace claimrag::cli
