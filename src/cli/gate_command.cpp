#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/evidence/gate_stage.hpp"
#include "claimrag/gate/thresholds.hpp"
#include "claimrag/io/table.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {
namespace {

std::string known_signals() {
  std::string names;
  for (const auto& name : gate::signal_names()) names += (names.empty() ? "" : ", ") + name;
  return names;
}

}  // namespace

void add_gate_command(CLI::App& root) {
  struct Options {
    std::string data, split, system_run, bm25_run, dense_run, rerank_run, signal_file, evidence, config;
    std::vector<std::string> signals;
    std::string thresholds, out, risk_coverage, decisions;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "gate", "Answer or refuse each claim by a confidence signal, and measure how often the answers are wrong");
  add_data_option(*command, options->data);
  command->add_option("--split", options->split, "Split whose judged claims are gated")->required();
  command->add_option("--run", options->system_run,
                      "The system's run: a claim with no relevant document in its top-10 is a hallucination")
      ->required();
  command->add_option("--signal", options->signals, "Confidence signal(s), comma-separated: " + known_signals())
      ->required()
      ->delimiter(',');
  command->add_option("--thresholds", options->thresholds, "List 10,15,20 | range start:stop:step | coverage:0.3,0.5");
  command->add_option("--bm25-run", options->bm25_run, "BM25 run (for bm25_* and sparse_dense_* signals)");
  command->add_option("--dense-run", options->dense_run, "Dense run (for sparse_dense_* signals)");
  command->add_option("--rerank-run", options->rerank_run, "Reranked run (for rerank_top1)");
  command->add_option("--signal-file", options->signal_file, "TSV claim_id<TAB>value (for the signal 'file')");
  command->add_option("--evidence", options->evidence,
                      "Evidence JSON Lines of extract-evidence (for verifier_top1 and the evidence_f1 column)");
  add_config_option(*command, options->config);  // with --evidence: the sentence splitter's minimum length
  command->add_option("--out", options->out, "Sweep TSV: a row per signal and threshold (needs --thresholds)");
  command->add_option("--risk-coverage", options->risk_coverage, "Risk-coverage TSV: a row per signal");
  command->add_option("--decisions", options->decisions, "Per-claim decisions JSONL (one signal, one threshold)");
  command->callback([options] {
    const io::OutputDeclaration files{.inputs = {options->data, options->system_run, options->bm25_run, options->dense_run,
                                                 options->rerank_run, options->signal_file, options->evidence, options->config},
                                      .files = {options->out, options->risk_coverage, options->decisions}};
    with_outputs(files, [&] {
      if (options->out.empty() && options->risk_coverage.empty() && options->decisions.empty()) {
        throw UsageError("nothing to write: give --out, --risk-coverage or --decisions");
      }
      if ((!options->out.empty() || !options->decisions.empty()) && options->thresholds.empty()) {
        throw UsageError("--out and --decisions need --thresholds");
      }
      if (!options->decisions.empty() && options->signals.size() != 1) throw UsageError("--decisions needs exactly one signal");
      experiment::GateRequest request;
      request.data = options->data;
      request.split = options->split;
      request.system_run = options->system_run;
      request.bm25_run = options->bm25_run;
      request.dense_run = options->dense_run;
      request.rerank_run = options->rerank_run;
      request.signal_file = options->signal_file;
      request.evidence = options->evidence;
      if (!options->evidence.empty()) {
        request.min_sentence_characters = config_from(options->config).evidence.min_sentence_characters;
      }
      const experiment::GateData data(request);
      const auto spec = options->thresholds.empty() ? gate::ThresholdSpec{} : gate::parse_thresholds(options->thresholds);
      io::Table sweep_table{experiment::sweep_columns(), {}};
      io::Table curve_table{experiment::risk_coverage_columns(), {}};
      for (const auto& signal : options->signals) {
        const auto claims = data.outcomes(signal);
        std::vector<double> values;
        for (const auto& claim : claims) values.push_back(claim.signal);
        if (!options->thresholds.empty()) {
          const auto thresholds = gate::resolve_thresholds(spec, values);
          experiment::append_sweep(signal, gate::sweep(claims, thresholds), sweep_table.rows);
          if (!options->decisions.empty()) {
            if (thresholds.size() != 1) throw UsageError("--decisions needs exactly one threshold, got " + std::to_string(thresholds.size()));
            experiment::write_decisions(claims, signal, thresholds.front(), options->decisions);
          }
        }
        experiment::append_risk_coverage(signal, gate::risk_coverage(claims), curve_table.rows);
      }
      if (!options->out.empty()) io::write_tsv(sweep_table, options->out);
      if (!options->risk_coverage.empty()) io::write_tsv(curve_table, options->risk_coverage);
      spdlog::info("{} claims, {} signal(s) gated", data.claim_ids().size(), options->signals.size());
    });
  });
}

}  // namespace claimrag::cli
