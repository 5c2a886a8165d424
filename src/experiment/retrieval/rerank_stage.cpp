#include "claimrag/io/atomic_file_set.hpp"
#include "claimrag/experiment/retrieval/rerank_stage.hpp"
#include "claimrag/run/run_shard.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/rerank/model_io.hpp"

namespace claimrag::experiment {
namespace {

void log_model(const rerank::RerankerModel& model) {
  const auto& classifier = model.classifier;
  for (std::size_t f = 0; f < model.features.names.size(); ++f) {
    spdlog::info("  weight {:<13} {: .6e}", model.features.names[f], classifier.weights[static_cast<Eigen::Index>(f)]);
  }
  spdlog::info("  intercept     {: .6e}", classifier.intercept);
}

}  // namespace

RerankResources::RerankResources(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                                 const ExperimentConfig& config)
    : RerankResources(beir_folder, index_folder, bm25::load_index(index_folder / kBm25IndexFile), config) {}

RerankResources::RerankResources(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                                 bm25::InvertedIndex loaded, const ExperimentConfig& config)
    : beir_folder_(beir_folder),
      corpus_(dataset::load_corpus(beir_folder / "corpus.jsonl")),
      index_(checked_index(std::move(loaded), index_folder, corpus_.checksum, beir_folder / "corpus.jsonl")),
      extractor_(corpus_, index_, config.bm25.parameters, tfidf::TfidfOptions{config.rerank.max_features}) {
  for (auto& query : dataset::load_queries(beir_folder / "queries.jsonl")) {
    query_text_.emplace(std::move(query.id), std::move(query.text));
  }
}

rerank::RerankerTrainingOptions training_options(const ExperimentConfig& config) {
  rerank::RerankerTrainingOptions options;
  options.train_depth = config.rerank.train_depth;
  options.C = config.rerank.C;
  options.class_weight =
      config.rerank.class_weight == "none" ? rerank::ClassWeight::none : rerank::ClassWeight::balanced;
  options.train_split = config.data.train_split;
  return options;
}

rerank::RerankerModel train_reranker_on_split(const RerankResources& resources, const ExperimentConfig& config) {
  const auto options = training_options(config);
  const auto queries = select_queries(resources.beir_folder(), {options.train_split, {}});
  const auto qrels = dataset::load_split(resources.beir_folder(), options.train_split);
  auto model = rerank::train_reranker(resources.extractor(), queries, qrels, options);
  spdlog::info("reranker trained on split {}: {} claims, {} pairs ({} relevant), {} Newton iterations{}",
               options.train_split, model.training_queries, model.training_rows, model.training_positives,
               model.classifier.iterations, model.classifier.converged ? "" : " (NOT converged)");
  log_model(model);
  return model;
}

run::Run rerank_run_file(const RerankResources& resources, const rerank::RerankerModel& model,
                         const std::string& model_source, const std::filesystem::path& run_file,
                         const ExperimentConfig& config, shard::ShardSelection* shard) {
  rerank::check_compatible(model, resources.extractor().definition(), model_source);
  const auto input = run::keep_shard(run::read_trec_run(run_file), shard);
  return rerank::rerank_run(input, run_file.string(), resources.query_text(), resources.extractor(), model,
                            {config.rerank.rerank_depth, {}});
}

void run_rerank_stage(const RerankRequest& request, const ExperimentConfig& config) {
  if (request.model_file.empty()) {
    throw UsageError("rerank needs --model FILE: the model to write (with --train) or to read");
  }
  if (!request.train && !std::filesystem::exists(request.model_file)) {
    throw UsageError("model " + request.model_file.string() + " does not exist: add --train to fit and write it");
  }
  const RerankResources resources(request.beir_folder, request.index_folder, config);
  rerank::RerankerModel model;
  io::AtomicFileSet files;  // a trained model and the run it reranked are replaced together
  if (request.train) {
    model = train_reranker_on_split(resources, config);
    rerank::save_model(model, files.stage(request.model_file));
  } else {
    model = rerank::load_model(request.model_file);
    spdlog::info("reranker model <- {} (trained on split {}, {} pairs)", request.model_file.string(),
                 model.training.train_split, model.training_rows);
    log_model(model);
  }
  const auto reranked = rerank_run_file(resources, model, request.model_file.string(), request.run_file, config, request.shard);
  run::write_trec_run(reranked, files.stage(request.out_file));
  files.commit();
  if (request.train) spdlog::info("reranker model -> {}", request.model_file.string());
  spdlog::info("reranked the top {} of {} queries -> {}", config.rerank.rerank_depth, reranked.rankings.size(),
               request.out_file.string());
}

}  // namespace claimrag::experiment
