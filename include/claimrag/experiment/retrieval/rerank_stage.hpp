#pragma once
// The reranking stage as the command line and the reproduction run it.
//
// Flag design (claimrag rerank): --model FILE is always given. With --train the reranker is
// fitted on the configuration's train split (data.train_split) and written to FILE, replacing
// what was there; without it FILE is loaded and must match the corpus, the TF-IDF vectorizer,
// the feature list and BM25's k1/b of this run (a clear DataError otherwise). Either way the
// model then reranks --run into --out, and its weights are logged.

#include <filesystem>
#include <string>
#include <unordered_map>

#include "claimrag/bm25/index.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/rerank/features.hpp"
#include "claimrag/rerank/reranker.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/shard/shard_selection.hpp"

namespace claimrag::experiment {

/// What reranking needs from a BEIR folder and its BM25 index, loaded once. Neither copyable nor
/// movable: the feature extractor refers to the index.
class RerankResources {
 public:
  /// Loads `<beir_folder>/corpus.jsonl`, `queries.jsonl` and `<index_folder>/bm25.index` (which
  /// must have been built from that corpus: DataError otherwise) and fits the features' TF-IDF.
  RerankResources(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                  const ExperimentConfig& config);
  /// The same with `<index_folder>/bm25.index` already read into `loaded` (checked the same way).
  RerankResources(const std::filesystem::path& beir_folder, const std::filesystem::path& index_folder,
                  bm25::InvertedIndex loaded, const ExperimentConfig& config);
  RerankResources(const RerankResources&) = delete;
  RerankResources& operator=(const RerankResources&) = delete;

  [[nodiscard]] const std::filesystem::path& beir_folder() const { return beir_folder_; }
  [[nodiscard]] const rerank::FeatureExtractor& extractor() const { return extractor_; }
  /// Query id -> claim text, for every query of queries.jsonl.
  [[nodiscard]] const std::unordered_map<std::string, std::string>& query_text() const { return query_text_; }

 private:
  std::filesystem::path beir_folder_;
  dataset::Corpus corpus_;
  bm25::InvertedIndex index_;
  rerank::FeatureExtractor extractor_;
  std::unordered_map<std::string, std::string> query_text_;
};

/// The reranker's options from the configuration's "rerank" section and data.train_split.
rerank::RerankerTrainingOptions training_options(const ExperimentConfig& config);

/// Trains on the judged claims of the configuration's train split and logs the weights.
rerank::RerankerModel train_reranker_on_split(const RerankResources& resources, const ExperimentConfig& config);

/// Reranks the top rerank_depth of the run in `run_file` with `model` (checked compatible first):
/// of its queries, `shard`'s block only when given.
run::Run rerank_run_file(const RerankResources& resources, const rerank::RerankerModel& model,
                         const std::string& model_source, const std::filesystem::path& run_file,
                         const ExperimentConfig& config, shard::ShardSelection* shard = nullptr);

/// What `claimrag rerank` does.
struct RerankRequest {
  std::filesystem::path beir_folder;
  std::filesystem::path index_folder;
  std::filesystem::path run_file;
  std::filesystem::path out_file;
  std::filesystem::path model_file;  ///< required
  bool train = false;                ///< fit and write model_file, instead of reading it
  shard::ShardSelection* shard = nullptr;  ///< the shard of the run's queries to rerank; nullptr: all
};

/// Trains (and saves) or loads the model, reranks the run and writes it to out_file.
void run_rerank_stage(const RerankRequest& request, const ExperimentConfig& config);

}  // namespace claimrag::experiment
