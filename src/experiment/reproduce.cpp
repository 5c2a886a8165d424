#include "claimrag/experiment/reproduce.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/experiment/bm25_stage.hpp"
#include "claimrag/experiment/dense_stage.hpp"
#include "claimrag/experiment/gate_stage.hpp"
#include "claimrag/experiment/meta.hpp"
#include "claimrag/experiment/paper_tables.hpp"
#include "claimrag/experiment/stage_timer.hpp"
#include "claimrag/experiment/stats_stage.hpp"
#include "claimrag/gate/thresholds.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/metrics/ranking.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

/// Evaluates `run` on the test split and files the means under results[section].
void evaluate_into(Results& results, const std::string& section, const run::Run& run, const dataset::Qrels& qrels,
                   const std::vector<metrics::MetricSpec>& specs) {
  const auto evaluation = metrics::evaluate_run(run, qrels, specs);
  for (std::size_t m = 0; m < specs.size(); ++m) results[section][specs[m].name()] = evaluation.mean[m];
}

void check_output_folder(const fs::path& out, bool force) {
  if (fs::exists(out / "results.json") && !force) {
    throw UsageError(out.string() + " already holds a reproduction: pass --force to replace it, or choose another --out");
  }
  if (fs::exists(out) && !fs::is_directory(out)) throw UsageError(out.string() + " exists and is not a folder");
}

nlohmann::json results_to_json(const Reproduction& reproduction) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [section, values] : reproduction.results) {
    for (const auto& [metric, value] : values) metrics[section][metric] = value;
  }
  nlohmann::json timings = nlohmann::json::array();
  for (const auto& timing : reproduction.timings) timings.push_back({{"stage", timing.stage}, {"seconds", timing.seconds}});
  return {{"metrics", metrics}, {"timings", timings}};
}

}  // namespace

Reproduction reproduce(const ExperimentConfig& config, const ReproduceOptions& options) {
  check_output_folder(options.out, options.force);
  const fs::path work = fs::path(options.out.string() + ".partial");
  fs::remove_all(work);
  fs::create_directories(work);
  const fs::path beir = config.data.beir;
  const auto specs = metrics::parse_metric_list(config.evaluation.metrics);
  Reproduction reproduction;
  StageTimer timer;

  const auto statistics = timer.time("statistics", [&] { return dataset_statistics(beir); });
  write_table1(statistics, work / "tables");
  reproduction.results["table1"] = table1_results(statistics);

  const auto test_qrels = dataset::load_split(beir, config.data.test_split);
  const auto all_queries = dataset::load_queries(beir / "queries.jsonl");
  const auto test_queries = dataset::queries_of_split(all_queries, test_qrels, config.data.test_split);

  timer.time("bm25 index", [&] { index_bm25(beir, work / "models" / "bm25", config); });
  const auto bm25 = timer.time("bm25 retrieval", [&] {
    return retrieve_bm25(beir, work / "models" / "bm25", test_queries, config.bm25, config.bm25.depth);
  });
  run::write_trec_run(bm25, work / "runs" / "bm25.trec");
  evaluate_into(reproduction.results, "bm25", bm25, test_qrels, specs);

  timer.time("dense training", [&] { index_dense(beir, work / "models" / "dense", config); });
  const auto dense = timer.time("dense retrieval", [&] {
    return retrieve_dense(beir, work / "models" / "dense", test_queries, config, config.dense.depth);
  });
  run::write_trec_run(dense, work / "runs" / "dense.trec");
  evaluate_into(reproduction.results, "dense", dense, test_qrels, specs);

  const std::vector<std::string> systems{"bm25", "dense"};
  const fs::path system_run = work / "runs" / "bm25.trec";
  timer.time("gate", [&] {
    GateRequest request;
    request.data = beir;
    request.split = config.data.test_split;
    request.system_run = system_run;
    request.bm25_run = work / "runs" / "bm25.trec";
    request.dense_run = work / "runs" / "dense.trec";
    const GateData data(request);
    write_gate_tables(data, config, work / "tables", reproduction.results);
  });

  reproduction.timings = timer.timings();
  write_ranking_tables(reproduction.results, systems, work / "tables");
  write_table9(reproduction.timings, work / "tables");
  io::write_file_atomically(work / "results.json", results_to_json(reproduction).dump(2) + "\n");
  write_meta(work, config, {{"stage", "reproduce"}, {"data", config.data.beir}});
  if (!config.expected.empty()) reproduction.check = check_all(config.expected, reproduction.results);
  write_report(reproduction, config, work / "REPORT.md");

  if (fs::exists(options.out)) fs::remove_all(options.out);
  fs::rename(work, options.out);
  return reproduction;
}

}  // namespace claimrag::experiment
