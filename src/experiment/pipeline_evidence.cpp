// The evidence and gate stages of the reproduction, and the choice of stages a configuration
// makes (experiment/pipeline.hpp).

#include <algorithm>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/combined_stage.hpp"
#include "claimrag/experiment/evidence/evidence_evaluation.hpp"
#include "claimrag/experiment/evidence/evidence_signals.hpp"
#include "claimrag/experiment/evidence/evidence_stage.hpp"
#include "claimrag/experiment/evidence/gate_stage.hpp"
#include "claimrag/experiment/paper_tables.hpp"
#include "claimrag/experiment/pipeline.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"

namespace claimrag::experiment {
namespace {

namespace fs = std::filesystem;

bool uses_signal(const ExperimentConfig& config, const std::string& signal) {
  const auto& gate = config.gate;
  const auto in = [&](const std::vector<std::string>& names) { return std::find(names.begin(), names.end(), signal) != names.end(); };
  return gate.signal == signal || in(gate.compared_signals) || in(gate.combined_features);
}

}  // namespace

Stage evidence_stage(const std::string& rationales) {
  const std::string section = rationales == "pseudo" ? "evidence" : "evidence_gold";
  Stage stage{rationales == "pseudo" ? "evidence" : "evidence_gold",
              {"runs/hybrid_rerank.trec"},
              {"evidence/" + section + ".jsonl", "evidence/" + section + ".tsv", "evidence/" + section + ".json",
               "models/verifier_" + rationales + ".safetensors"},
              {}};
  stage.run = [rationales, section](StageContext& context) {
    const auto& config = context.config;
    const fs::path file = context.work / "evidence" / (section + ".jsonl");
    // The reranker's BM25 index and TF-IDF vectorizer, which training and the evaluation reuse
    // where they equal their own.
    const rerank::FeatureExtractor* corpus_models = context.rerank_resources ? &context.rerank_resources->extractor() : nullptr;
    context.timer.time("evidence " + rationales, [&] {
      ExtractEvidenceRequest request;
      request.data = context.beir;
      request.run = context.work / "runs" / "hybrid_rerank.trec";
      request.out = file;
      request.split = config.data.test_split;
      request.save_model = context.work / "models" / ("verifier_" + rationales + ".safetensors");
      request.rationales = rationales;
      request.original = config.data.original;
      request.corpus_models = corpus_models;
      run_extract_evidence(request, config);
    });
    const auto evaluation = evaluate_evidence(
        {context.beir, config.data.test_split, file, config.data.original, config.evidence.min_sentence_characters},
        corpus_models);
    // Named relative to the reproduction folder, so that the file does not depend on where it is.
    write_evidence_evaluation(evaluation, "evidence/" + section + ".jsonl", config.data.test_split,
                              context.work / "evidence" / section, context.paper.section("evidence"));
    context.results[section] = evaluation.mean;
    if (rationales != "pseudo") return;
    const auto signals = evidence_signals(evaluation, evidence::read_evidence(file));
    context.evidence_token_f1 = signals.token_f1;
    context.verifier_top1 = signals.verifier_top1;
  };
  return stage;
}

Stage gate_stage(const ExperimentConfig& config) {
  Stage stage{"gate",
              {"runs/bm25.trec", "runs/dense.trec", "runs/hybrid_rerank.trec", "runs/train/bm25.trec", "runs/train/dense.trec",
               "runs/train/hybrid_rerank.trec"},
              {"tables/table8.tsv", "tables/risk_coverage.tsv", "tables/combined_signal.tsv", "gate/combined_signal_train.tsv",
               "gate/combined_signal_test.tsv"},
              {}};
  if (uses_signal(config, "verifier_top1")) stage.inputs.push_back("evidence/evidence.jsonl");
  stage.run = [](StageContext& context) {
    const auto& config = context.config;
    context.timer.time("gate", [&] {
      const fs::path runs = context.work / "runs";
      GateRequest request;
      request.data = context.beir;
      request.split = config.data.test_split;
      request.system_run = runs / "hybrid_rerank.trec";
      request.bm25_run = runs / "bm25.trec";
      request.dense_run = runs / "dense.trec";
      request.rerank_run = runs / "hybrid_rerank.trec";
      request.hallucination_depth = config.gate.hallucination_depth;
      request.evidence_f1 = context.evidence_token_f1;
      request.verifier_top1 = context.verifier_top1;
      const GateData data(request);
      write_gate_tables(data, config, context.work / "tables", context.results);
      GateRequest train_request = request;
      train_request.split = config.data.train_split;
      train_request.system_run = runs / "train" / "hybrid_rerank.trec";
      train_request.bm25_run = runs / "train" / "bm25.trec";
      train_request.dense_run = runs / "train" / "dense.trec";
      train_request.rerank_run = runs / "train" / "hybrid_rerank.trec";
      train_request.evidence_f1.clear();
      train_request.verifier_top1.clear();
      write_combined_signal(GateData(train_request), data, config, context.work / "tables", context.work / "gate",
                            context.results);
    });
  };
  return stage;
}

const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> names{"statistics", "bm25",     "dense",         "fusion", "rerank",
                                              "training_runs", "evidence", "evidence_gold", "gate", "verification",
                                              "checkpoint_verification", "grounding", "interrogation", "sufficiency", "abstention", "lexical_ranker"};
  return names;
}

namespace {

/// The stages that read SciFact's original layout (gold rationales and labels).
bool needs_original_layout(const std::string& name) {
  return name == "evidence_gold" || name == "verification" || name == "checkpoint_verification" || name == "grounding" || name == "interrogation" ||
         name == "sufficiency" || name == "abstention";
}

Stage make_stage(const std::string& name, const ExperimentConfig& config) {
  if (name == "statistics") return statistics_stage();
  if (name == "bm25") return bm25_stage();
  if (name == "dense") return dense_stage();
  if (name == "fusion") return fusion_stage();
  if (name == "rerank") return rerank_stage();
  if (name == "training_runs") return training_runs_stage();
  if (name == "evidence") return evidence_stage("pseudo");
  if (name == "evidence_gold") return evidence_stage("gold");
  if (name == "gate") return gate_stage(config);
  if (name == "verification") return verification_stage();
  if (name == "checkpoint_verification") return checkpoint_verification_stage();
  if (name == "grounding") return grounding_stage();
  if (name == "interrogation") return interrogation_stage();
  if (name == "sufficiency") return sufficiency_stage();
  if (name == "abstention") return abstention_stage();
  if (name == "lexical_ranker") return lexical_ranker_stage();
  std::string known;
  for (const auto& stage : stage_names()) known += (known.empty() ? "" : ", ") + stage;
  throw UsageError("stages: unknown stage \"" + name + "\" (known: " + known + ")");
}

}  // namespace

std::vector<Stage> plan_stages(const ExperimentConfig& config) {
  if (config.data.beir.empty()) throw UsageError("the configuration names no data.beir folder to reproduce on");
  std::vector<std::string> names = config.stages;
  if (names.empty()) {
    for (const auto& name : stage_names()) {
      if (name == "checkpoint_verification" && config.verification.checkpoint.verifier.empty()) continue;
      if (!needs_original_layout(name) || !config.data.original.empty()) names.push_back(name);
    }
  }
  std::vector<Stage> stages;
  for (const auto& name : names) {
    if (needs_original_layout(name) && config.data.original.empty()) {
      throw UsageError("stages: " + name + " trains on SciFact's gold rationales and needs data.original");
    }
    stages.push_back(make_stage(name, config));
  }
  check_stage_order(stages);
  return stages;
}

}  // namespace claimrag::experiment
