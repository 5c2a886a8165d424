#include "claimrag/experiment/systems/sufficiency_stage.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/experiment/verification/scifact_verifiers.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/sufficiency/aggregator.hpp"
#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/sufficiency/evaluation.hpp"
#include "claimrag/sufficiency/method_numbers.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;
using sufficiency::MethodResult;
using sufficiency::method_numbers;

void write_method_table(const std::vector<MethodResult>& methods, const std::vector<MethodResult>& diagnostics, const fs::path& file) {
  io::Table table{{"method", "kind", "macro_f1", "f1_supported", "f1_refuted", "f1_insufficient", "safe_f1", "unsafe_f1",
                   "risk_at_30", "risk_at_50", "risk_at_70", "aurc", "coverage_at_risk_10", "ece"},
                  {}};
  std::vector<MethodResult> rows = methods;
  rows.insert(rows.end(), diagnostics.begin(), diagnostics.end());
  for (const auto& method : rows) {
    const auto n = method_numbers(method);
    std::vector<std::string> row{method.name, method.kind};
    for (const char* key : {"macro_f1", "f1_supported", "f1_refuted", "f1_insufficient", "safe_f1", "unsafe_f1", "risk_at_30",
                            "risk_at_50", "risk_at_70", "aurc", "coverage_at_risk_10", "ece"}) {
      row.push_back(io::fixed(n.at(key), 4));
    }
    table.rows.push_back(std::move(row));
  }
  io::write_tsv(table, file);
}

void write_paper_table(const sufficiency::SufficiencyReport& report, const std::string& paper_file, const fs::path& file) {
  io::Table table{{"quantity", "sure_rag_paper_hotpotqa_rag_v3", "claimrag_scifact"}, {}};
  if (paper_file.empty()) return;
  const auto paper = nlohmann::json::parse(io::read_json_text(paper_file));
  std::map<std::string, double> ours;
  for (const auto& method : report.methods) {
    const auto n = method_numbers(method);
    ours[method.name + ":macro_f1"] = n.at("macro_f1");
    ours[method.name + ":risk_at_30"] = n.at("risk_at_30");
    ours[method.name + ":ece"] = n.at("ece");
  }
  ours["max_artifact_ratio"] = report.artifact_ratio;
  for (const auto& [key, value] : paper.at("numbers").items()) {
    const auto it = ours.find(key);
    table.rows.push_back({key, io::fixed(value.get<double>(), 4), it == ours.end() ? "-" : io::fixed(it->second, 4)});
  }
  io::write_tsv(table, file);
}

}  // namespace

void run_sufficiency_stage(const ExperimentConfig& config, SciFactVerifiers& data, const fs::path& work, Results& results) {
  const auto& options = config.sufficiency;
  const auto benchmark = sufficiency::build_benchmark(data.abstracts(), data.train_claims(), data.dev_claims(), options.benchmark);
  sufficiency::write_examples(work / "sufficiency" / "benchmark.jsonl", benchmark.examples);
  std::vector<sufficiency::Example> train_side, test_side;
  for (const auto& example : benchmark.examples) (example.split == "test" ? test_side : train_side).push_back(example);
  auto scored = sufficiency::score_examples(data.cross_fitted_oracle(), train_side);
  const auto scored_test = sufficiency::score_examples(data.oracle(), test_side);
  scored.insert(scored.end(), scored_test.begin(), scored_test.end());
  std::vector<sufficiency::Example> examples = train_side;
  examples.insert(examples.end(), test_side.begin(), test_side.end());
  const auto report = sufficiency::evaluate_sufficiency(examples, scored, options.evaluation);
  sufficiency::save_sure(report.sure, work / "models" / "sufficiency_aggregator.json");
  std::vector<MethodResult> report_rows;
  io::Table counterfactual{{"degradation", "comparisons", "success", "mean_delta"}, {}};
  auto& summary = results["sufficiency"];
  for (const auto& c : report.counterfactuals) {
    counterfactual.rows.push_back({c.degradation, std::to_string(c.comparisons), io::fixed(c.success, 4), io::fixed(c.mean_delta, 4)});
    summary["counterfactual_success:" + c.degradation] = c.success;
    summary["counterfactual_delta:" + c.degradation] = c.mean_delta;
  }
  io::write_tsv(counterfactual, work / "tables" / "sufficiency_counterfactual.tsv");
  write_paper_table(report, options.paper, work / "tables" / "sufficiency_paper.tsv");
  std::map<std::string, double> labels;
  for (const auto& example : benchmark.examples) labels[example.split + ":" + std::string(sufficiency::label_name(example.label))] += 1;
  for (const auto& [key, count] : labels) summary["examples:" + key] = count;
  summary["train_examples"] = static_cast<double>(report.train);
  summary["dev_examples"] = static_cast<double>(report.dev);
  summary["test_examples"] = static_cast<double>(report.test);
  summary["dropped_train_claims"] = static_cast<double>(benchmark.dropped_train_claims);
  summary["skipped_claims"] = static_cast<double>(benchmark.skipped_claims);
  summary["artifact_ratio"] = report.artifact_ratio;
  summary["counterfactual_success"] = report.counterfactual_success;
  summary["temperature"] = report.sure.classifier.temperature;
  summary["beta"] = report.sure.beta;
  summary["tau"] = report.sure.tau;
  summary["dev_ece_raw"] = report.dev_ece_raw;
  summary["dev_ece_calibrated"] = report.dev_ece_calibrated;
  for (const auto& method : report.methods) results["sufficiency_" + method.name] = method_numbers(method);
  // Diagnostic: the same aggregation over gold pair scores (a perfect sentence-level verifier).
  std::vector<const dataset::Claim*> claims;
  for (const auto* side : {&data.train_claims(), &data.dev_claims()}) {
    for (const auto& claim : *side) claims.push_back(&claim);
  }
  const auto gold = sufficiency::evaluate_sufficiency(examples, sufficiency::gold_pair_scores(examples, claims), options.evaluation);
  for (const auto& method : gold.methods) {
    if (method.kind == "shortcut") continue;  // unchanged: shortcuts read no pair score but overlap
    auto copy = method;
    copy.name = "gold_pairs_" + method.name;
    copy.kind = "diagnostic";
    report_rows.push_back(copy);
    results["sufficiency_" + copy.name] = method_numbers(copy);
  }
  // What `sufficiency` on users' text reads: the pairs scored by the free-text verifier (the
  // default of the command line), cross-fitted on the train side as above, so the aggregator
  // learns that verifier's probabilities, not the oracle one's.
  auto free_text_scored = sufficiency::score_examples(data.cross_fitted_free_text(), train_side);
  const auto free_text_test = sufficiency::score_examples(data.free_text(), test_side);
  free_text_scored.insert(free_text_scored.end(), free_text_test.begin(), free_text_test.end());
  const auto free_text = sufficiency::evaluate_sufficiency(examples, free_text_scored, options.evaluation);
  sufficiency::save_sure(free_text.sure, work / "models" / "sufficiency_aggregator_free_text.json");
  for (const auto& method : free_text.methods) {
    if (method.kind == "shortcut") continue;  // unchanged: shortcuts read no pair score
    auto copy = method;
    copy.name = "free_text_" + method.name;
    copy.kind = "free_text";
    report_rows.push_back(copy);
    results["sufficiency_" + copy.name] = method_numbers(copy);
  }
  write_method_table(report.methods, report_rows, work / "tables" / "sufficiency.tsv");
  spdlog::info("sufficiency: SURE macro-F1 {:.4f}, best shortcut {} (artifact ratio {:.4f}), counterfactual success {:.4f}",
               results["sufficiency_sure_calibrated"]["macro_f1"], report.best_shortcut, report.artifact_ratio,
               report.counterfactual_success);
}

}  // namespace claimrag::experiment
