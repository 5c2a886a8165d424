#pragma once
// The logistic-regression reranker: trained on BM25 candidates of the train claims
// (training_set.hpp), it reorders the top `rerank_depth` documents of any run by the predicted
// probability of relevance.
//
// Output scores. The reordered head carries its probabilities, in [0, 1]. The documents below it
// keep their input order and get score −1, −2, −3, ... (minus their position below the head):
// strictly below every probability and strictly decreasing, so a tool that re-sorts by score
// (trec_eval) sees exactly the written rank order. Ties in probability keep the input order.

#include <cstddef>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/rerank/features.hpp"
#include "claimrag/rerank/logistic_regression.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::rerank {

/// How the reranker is trained; the defaults are the paper's.
struct RerankerTrainingOptions {
  std::size_t train_depth = 100;  ///< BM25 candidates per train claim
  double C = 1.0;
  ClassWeight class_weight = ClassWeight::balanced;
  std::string train_split = "train";  ///< recorded in the model; the caller passes that split's claims
};

/// A trained reranker: what its features mean, its weights, and how it was trained.
struct RerankerModel {
  FeatureDefinition features;
  LogisticRegressionModel classifier;  ///< weights in features.names order
  RerankerTrainingOptions training;
  std::size_t training_rows = 0;
  std::size_t training_positives = 0;
  std::size_t training_queries = 0;
};

/// Builds the training set of `queries` (judged in `qrels`) and fits the classifier.
RerankerModel train_reranker(const FeatureExtractor& extractor, std::span<const dataset::Query> queries,
                             const dataset::Qrels& qrels, const RerankerTrainingOptions& options = {});

/// Throws DataError(`source`, ...) unless `model` was trained under `expected` (same feature
/// names and order, corpus, TF-IDF vectorizer and k1/b), naming the first field that differs.
void check_compatible(const RerankerModel& model, const FeatureDefinition& expected, const std::string& source);

/// Reorders `ranking`: its first probabilities.size() documents (probabilities[i] belongs to the
/// i-th) by decreasing probability, ties in input order, then the rest in input order with
/// scores −1, −2, ... Precondition: probabilities.size() <= ranking.size(), each in [0, 1].
std::vector<run::ScoredDocument> reorder_by_probability(const std::vector<run::ScoredDocument>& ranking,
                                                        std::span<const double> probabilities);

struct RerankOptions {
  std::size_t rerank_depth = 50;  ///< >= 1
  std::string tag;                ///< tag of the output run; empty: the input's tag + "+rerank"
};

/// Reranks every ranking of `input` (read from `source`, named in errors). `query_text` maps each
/// query id of the run to its text; a query missing from it, or a document of the run (head or
/// tail) missing from the corpus, is a DataError naming `source`, the query and the document.
/// Queries are scored in parallel; the result does not depend on the thread count.
run::Run rerank_run(const run::Run& input, const std::string& source,
                    const std::unordered_map<std::string, std::string>& query_text,
                    const FeatureExtractor& extractor, const RerankerModel& model, const RerankOptions& options = {});

}  // namespace claimrag::rerank
