#include "claimrag/experiment/paper_tables.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/gate/thresholds.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::experiment {

std::map<std::string, double> table1_results(const dataset::DatasetStatistics& statistics) {
  std::map<std::string, double> values{{"corpus_documents", static_cast<double>(statistics.documents)},
                                       {"mean_document_tokens", statistics.mean_document_tokens}};
  for (const auto& split : statistics.splits) {
    values[split.name + "_claims"] = static_cast<double>(split.queries);
    values[split.name + "_pairs"] = static_cast<double>(split.pairs);
    values["mean_" + split.name + "_claim_tokens"] = split.mean_query_tokens;
  }
  return values;
}

namespace {

io::Table ranking_table(const Results& results, const std::vector<std::string>& systems, const std::vector<std::string>& metrics) {
  io::Table table{{"system"}, {}};
  table.columns.insert(table.columns.end(), metrics.begin(), metrics.end());
  for (const auto& system : systems) {
    if (!results.contains(system)) continue;
    std::vector<std::string> row{system};
    for (const auto& metric : metrics) row.push_back(io::fixed(results.at(system).at(metric), 6));
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace

void write_ranking_tables(const Results& results, const std::vector<std::string>& systems, const std::filesystem::path& folder) {
  io::write_tsv(ranking_table(results, systems, {"ndcg@10", "recall@10", "recall@100"}), folder / "table5.tsv");
  io::write_tsv(ranking_table(results, systems, {"ndcg@5", "ndcg@10", "ndcg@20", "ndcg@50"}), folder / "table6.tsv");
  // Table 5's metrics over the test claims whose relevant documents the train split judged
  // relevant, and over those with none of them (StageContext::evaluate_into).
  io::Table split{{"system", "group", "claims", "ndcg@10", "recall@10", "recall@100"}, {}};
  for (const auto& system : systems) {
    for (const std::string group : {"train_seen", "train_unseen"}) {
      const auto found = results.find(system + "_" + group);
      if (found == results.end()) continue;
      std::vector<std::string> row{system, group, io::fixed(found->second.at("claims"), 0)};
      for (const std::string metric : {"ndcg@10", "recall@10", "recall@100"}) {
        const auto value = found->second.find(metric);
        row.push_back(value == found->second.end() ? "NA" : io::fixed(value->second, 6));
      }
      split.rows.push_back(std::move(row));
    }
  }
  if (!split.rows.empty()) io::write_tsv(split, folder / "ranking_by_train_relevance.tsv");
  // Each system's paired difference from BM25 (StageContext::evaluate_into), for Table 5's metrics.
  io::Table against{{"system", "metric", "difference", "lower_95", "upper_95", "p_value", "resamples"}, {}};
  for (const auto& system : systems) {
    const auto found = results.find(system + "_vs_bm25");
    if (found == results.end()) continue;
    for (const std::string metric : {"ndcg@10", "recall@10", "recall@100"}) {
      if (!found->second.contains(metric + "_difference")) continue;
      against.rows.push_back({system, metric, io::fixed(found->second.at(metric + "_difference"), 6),
                              io::fixed(found->second.at(metric + "_lower"), 6), io::fixed(found->second.at(metric + "_upper"), 6),
                              io::fixed(found->second.at(metric + "_p_value"), 4), io::fixed(found->second.at("resamples"), 0)});
    }
  }
  if (!against.rows.empty()) io::write_tsv(against, folder / "ranking_vs_bm25.tsv");
}

void write_gate_tables(const GateData& data, const ExperimentConfig& config, const std::filesystem::path& folder,
                       Results& results) {
  const auto claims = data.outcomes(config.gate.signal);
  std::vector<double> values;
  for (const auto& claim : claims) values.push_back(claim.signal);
  const auto thresholds = gate::resolve_thresholds(gate::parse_thresholds(config.gate.thresholds), values);
  const auto rows = gate::sweep(claims, thresholds);
  io::Table table8{{"threshold", "answer_rate", "refusal_rate", "hallucination_rate", "evidence_f1"}, {}};
  for (const auto& row : rows) {
    const std::string at = "@" + io::fixed(row.threshold, 2);
    table8.rows.push_back({io::fixed(row.threshold, 2), io::fixed(row.answer_rate, 6), io::fixed(row.refusal_rate, 6),
                           io::fixed(row.hallucination_rate, 6), io::fixed(row.evidence_f1, 6)});
    results["table8"]["answer_rate" + at] = row.answer_rate;
    results["table8"]["hallucination_rate" + at] = row.hallucination_rate;
    results["table8"]["evidence_f1" + at] = row.evidence_f1;
  }
  io::write_tsv(table8, folder / "table8.tsv");

  io::Table curves{risk_coverage_columns(), {}};
  for (const auto& signal : config.gate.compared_signals) {
    const auto curve = gate::risk_coverage(data.outcomes(signal));
    append_risk_coverage(signal, curve, curves.rows);
    results["risk_coverage"]["aurc:" + signal] = curve.aurc;
  }
  io::write_tsv(curves, folder / "risk_coverage.tsv");
}

void write_table7(const Results& results, const PaperNumbers& paper, const std::filesystem::path& folder) {
  const std::vector<std::string> metrics{"exact_f1@1", "token_f1@1", "exact_f1@2", "token_f1@2", "rationale_f1@1", "rationale_f1@2"};
  io::Table table{{"verifier"}, {}};
  table.columns.insert(table.columns.end(), metrics.begin(), metrics.end());
  const auto add_row = [&](const std::string& label, const std::map<std::string, double>& values) {
    std::vector<std::string> row{label};
    for (const auto& metric : metrics) {
      const auto found = values.find(metric);
      row.push_back(found == values.end() ? "NA" : io::fixed(found->second, 6));
    }
    table.rows.push_back(std::move(row));
  };
  if (const auto* numbers = paper.section("evidence")) add_row("paper", *numbers);
  for (const auto& [label, section] : std::vector<std::pair<std::string, std::string>>{{"pseudo-gold trained", "evidence"},
                                                                                       {"gold-rationale trained", "evidence_gold"}}) {
    if (results.contains(section)) add_row(label, results.at(section));
  }
  io::write_tsv(table, folder / "table7.tsv");
}

void write_table9(const std::vector<StageTiming>& timings, const std::filesystem::path& folder) {
  io::Table table{{"stage", "seconds"}, {}};
  double total = 0;
  for (const auto& timing : timings) {
    table.rows.push_back({timing.stage, io::fixed(timing.seconds, 3)});
    total += timing.seconds;
  }
  table.rows.push_back({"total", io::fixed(total, 3)});
  io::write_tsv(table, folder / "table9.tsv");
}

void write_report(const Reproduction& reproduction, const ExperimentConfig& config, const PaperNumbers& paper,
                  const std::filesystem::path& path) {
  std::ostringstream report;
  report << "# Reproduction report: " << config.name << "\n\n"
         << "Configuration `" << config.source << "` (checksum " << config.checksum << "), seed " << config.seed << ".\n\n";
  nlohmann::json expected;
  if (!config.expected.empty()) expected = nlohmann::json::parse(io::read_json_text(config.expected));
  if (!paper.empty()) report << "The paper's numbers: " << paper.source << " (`" << config.paper << "`).\n\n";
  report << "| section | metric | paper | ours | difference | check | why they differ |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [section, values] : reproduction.results) {
    const auto* paper_section = paper.section(section);
    for (const auto& [metric, value] : values) {
      std::string paper_value = "", difference = "", verdict = "not frozen", why = "";
      if (paper_section != nullptr && paper_section->contains(metric)) {
        paper_value = io::fixed(paper_section->at(metric), 6);
        difference = io::fixed(value - paper_section->at(metric), 6);
      }
      if (expected.contains("sections") && expected["sections"].contains(section) && expected["sections"][section].contains(metric)) {
        const auto& entry = expected["sections"][section][metric];
        if (entry.contains("why")) why = entry["why"].get<std::string>();
        verdict = "frozen";
        for (const auto& line : reproduction.check.lines) {
          if (line.section == section && line.metric == metric) verdict = line.ok ? "OK" : "FAIL";
        }
      }
      report << "| " << section << " | " << metric << " | " << paper_value << " | " << io::fixed(value, 6) << " | " << difference
             << " | " << verdict << " | " << why << " |\n";
    }
  }
  report << "\n## Runtime (Table 9)\n\n| stage | seconds |\n|---|---|\n";
  double total = 0;
  for (const auto& timing : reproduction.timings) {
    report << "| " << timing.stage << " | " << io::fixed(timing.seconds, 3) << " |\n";
    total += timing.seconds;
  }
  report << "| total | " << io::fixed(total, 3) << " |\n";
  io::write_file_atomically(path, report.str());
}

}  // namespace claimrag::experiment
