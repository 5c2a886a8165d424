#include "claimrag/experiment/reproduce.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/experiment/bm25_stage.hpp"
#include "claimrag/experiment/combined_stage.hpp"
#include "claimrag/experiment/dense_stage.hpp"
#include "claimrag/experiment/evidence_evaluation.hpp"
#include "claimrag/experiment/evidence_stage.hpp"
#include "claimrag/experiment/fusion_stage.hpp"
#include "claimrag/experiment/rerank_stage.hpp"
#include "claimrag/rerank/model_io.hpp"
#include "claimrag/experiment/gate_stage.hpp"
#include "claimrag/experiment/meta.hpp"
#include "claimrag/experiment/paper_tables.hpp"
#include "claimrag/experiment/stage_timer.hpp"
#include "claimrag/experiment/stats_stage.hpp"
#include "claimrag/experiment/verification_stage.hpp"
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
  write_token_lengths(statistics, work / "tables");
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

  const auto hybrid = timer.time("fusion", [&] {
    return fuse_run_files({work / "runs" / "bm25.trec", work / "runs" / "dense.trec"},
                          {config.fusion.rrf_k, config.fusion.depth, "hybrid"});
  });
  run::write_trec_run(hybrid, work / "runs" / "hybrid.trec");
  evaluate_into(reproduction.results, "hybrid", hybrid, test_qrels, specs);

  const RerankResources resources(beir, work / "models" / "bm25", config);
  const auto reranker = timer.time("reranker training", [&] { return train_reranker_on_split(resources, config); });
  const fs::path reranker_file = work / "models" / "reranker.safetensors";
  rerank::save_model(reranker, reranker_file);
  const auto reranked = timer.time("reranking", [&] {
    return rerank_run_file(resources, reranker, reranker_file.string(), work / "runs" / "hybrid.trec", config);
  });
  run::write_trec_run(reranked, work / "runs" / "hybrid_rerank.trec");
  evaluate_into(reproduction.results, "hybrid_rerank", reranked, test_qrels, specs);

  // The training claims through the same pipeline: the combined signal learns from them.
  timer.time("training-claim runs", [&] {
    const auto train_qrels = dataset::load_split(beir, config.data.train_split);
    const auto train_queries = dataset::queries_of_split(all_queries, train_qrels, config.data.train_split);
    const fs::path runs = work / "runs" / "train";
    run::write_trec_run(retrieve_bm25(beir, work / "models" / "bm25", train_queries, config.bm25, config.bm25.depth),
                        runs / "bm25.trec");
    run::write_trec_run(retrieve_dense(beir, work / "models" / "dense", train_queries, config, config.dense.depth),
                        runs / "dense.trec");
    run::write_trec_run(fuse_run_files({runs / "bm25.trec", runs / "dense.trec"}, {config.fusion.rrf_k, config.fusion.depth, "hybrid"}),
                        runs / "hybrid.trec");
    run::write_trec_run(rerank_run_file(resources, reranker, reranker_file.string(), runs / "hybrid.trec", config),
                        runs / "hybrid_rerank.trec");
  });

  // Evidence (Table 7): the verifier trained on pseudo-gold (the paper's) and on SciFact's gold
  // rationales (beyond the paper), each selecting from the reranked top-10 of the test claims.
  std::map<std::string, double> evidence_token_f1, verifier_top1;
  for (const std::string rationales : {"pseudo", "gold"}) {
    const std::string section = rationales == "pseudo" ? "evidence" : "evidence_gold";
    const fs::path file = work / "evidence" / (section + ".jsonl");
    timer.time("evidence " + rationales, [&] {
      ExtractEvidenceRequest request;
      request.data = beir;
      request.run = work / "runs" / "hybrid_rerank.trec";
      request.out = file;
      request.split = config.data.test_split;
      request.save_model = work / "models" / ("verifier_" + rationales + ".safetensors");
      request.rationales = rationales;
      request.original = config.data.original;
      run_extract_evidence(request, config);
    });
    const auto evaluation = evaluate_evidence(
        {beir, config.data.test_split, file, config.data.original, config.evidence.min_sentence_characters});
    // Named relative to the reproduction folder, so that the file does not depend on where it is.
    write_evidence_evaluation(evaluation, "evidence/" + section + ".jsonl", config.data.test_split, work / "evidence" / section);
    reproduction.results[section] = evaluation.mean;
    if (rationales != "pseudo") continue;
    for (std::size_t i = 0; i < evaluation.claim_ids.size(); ++i) {
      const auto f1 = evaluation.per_claim[i].find("token_f1@2");
      if (f1 != evaluation.per_claim[i].end()) evidence_token_f1[evaluation.claim_ids[i]] = f1->second;
    }
    for (const auto& claim : evidence::read_evidence(file)) {
      verifier_top1[claim.claim_id] = claim.selected.empty() ? 0.0 : claim.selected.front().score;
    }
  }
  write_table7(reproduction.results, work / "tables");

  const std::vector<std::string> systems{"bm25", "dense", "hybrid", "hybrid_rerank"};
  const fs::path system_run = work / "runs" / "hybrid_rerank.trec";
  timer.time("gate", [&] {
    GateRequest request;
    request.data = beir;
    request.split = config.data.test_split;
    request.system_run = system_run;
    request.bm25_run = work / "runs" / "bm25.trec";
    request.dense_run = work / "runs" / "dense.trec";
    request.rerank_run = work / "runs" / "hybrid_rerank.trec";
    request.hallucination_depth = config.gate.hallucination_depth;
    request.evidence_f1 = evidence_token_f1;
    request.verifier_top1 = verifier_top1;
    const GateData data(request);
    write_gate_tables(data, config, work / "tables", reproduction.results);
    GateRequest train_request = request;
    const fs::path train_runs = work / "runs" / "train";
    train_request.split = config.data.train_split;
    train_request.system_run = train_runs / "hybrid_rerank.trec";
    train_request.bm25_run = train_runs / "bm25.trec";
    train_request.dense_run = train_runs / "dense.trec";
    train_request.rerank_run = train_runs / "hybrid_rerank.trec";
    train_request.evidence_f1.clear();
    train_request.verifier_top1.clear();
    write_combined_signal(GateData(train_request), data, config, work / "tables", reproduction.results);
  });

  // Claim verification needs SciFact's original layout; other datasets have no such stage.
  if (fs::exists(fs::path(config.data.original) / "claims_train.jsonl")) {
    timer.time("claim verification", [&] { run_verification_stage(config, work, reproduction.results); });
  }

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
