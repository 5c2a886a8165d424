#include "claimrag/rerank/reranker.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/rerank/training_set.hpp"

namespace claimrag::rerank {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

}  // namespace

RerankerModel train_reranker(const FeatureExtractor& extractor, std::span<const dataset::Query> queries,
                             const dataset::Qrels& qrels, const RerankerTrainingOptions& options) {
  const TrainingSet set = build_training_set(extractor, queries, qrels, options.train_depth);
  LogisticRegressionOptions fit_options;
  fit_options.C = options.C;
  fit_options.class_weight = options.class_weight;
  RerankerModel model;
  model.features = extractor.definition();
  model.classifier = fit_logistic_regression(set.features, set.labels, fit_options);
  model.training = options;
  model.training_rows = set.labels.size();
  model.training_positives = set.positives();
  model.training_queries = queries.size();
  return model;
}

void check_compatible(const RerankerModel& model, const FeatureDefinition& expected, const std::string& source) {
  const FeatureDefinition& found = model.features;
  if (found.names != expected.names) {
    throw DataError(source, "the model uses the features [" + preview_list(found.names, 8) + "] but this reranker computes [" +
                                preview_list(expected.names, 8) + "]: train it again with --train");
  }
  if (static_cast<std::size_t>(model.classifier.weights.size()) != found.names.size()) {
    throw DataError(source, "the model has " + std::to_string(model.classifier.weights.size()) + " weights for " +
                                std::to_string(found.names.size()) + " features");
  }
  if (found.corpus_checksum != expected.corpus_checksum) {
    throw DataError(source, "the model was trained on another corpus (checksum " + found.corpus_checksum +
                                ", this corpus " + expected.corpus_checksum + "): train it again with --train");
  }
  if (found.tfidf_fingerprint != expected.tfidf_fingerprint || found.tfidf_max_features != expected.tfidf_max_features) {
    throw DataError(source, "the model's TF-IDF vectorizer (fingerprint " + found.tfidf_fingerprint + ", max_features " +
                                std::to_string(found.tfidf_max_features) + ") differs from this one (" +
                                expected.tfidf_fingerprint + ", " + std::to_string(expected.tfidf_max_features) +
                                "): train it again with --train");
  }
  if (found.bm25.k1 != expected.bm25.k1 || found.bm25.b != expected.bm25.b) {
    throw DataError(source, "the model's BM25 feature uses k1=" + number(found.bm25.k1) + ", b=" + number(found.bm25.b) +
                                " but the configuration says k1=" + number(expected.bm25.k1) +
                                ", b=" + number(expected.bm25.b));
  }
}

std::vector<run::ScoredDocument> reorder_by_probability(const std::vector<run::ScoredDocument>& ranking,
                                                        std::span<const double> probabilities) {
  if (probabilities.size() > ranking.size()) {
    throw InternalError("reranker: more probabilities than documents");
  }
  std::vector<std::size_t> order(probabilities.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return probabilities[a] > probabilities[b]; });
  std::vector<run::ScoredDocument> reordered;
  reordered.reserve(ranking.size());
  for (const std::size_t i : order) reordered.push_back({ranking[i].doc_id, probabilities[i]});
  for (std::size_t i = probabilities.size(); i < ranking.size(); ++i) {
    reordered.push_back({ranking[i].doc_id, -static_cast<double>(i - probabilities.size() + 1)});
  }
  return reordered;
}

run::Run rerank_run(const run::Run& input, const std::string& source,
                    const std::unordered_map<std::string, std::string>& query_text,
                    const FeatureExtractor& extractor, const RerankerModel& model, const RerankOptions& options) {
  if (options.rerank_depth == 0) throw UsageError("reranker: rerank_depth must be >= 1");
  if (static_cast<std::size_t>(model.classifier.weights.size()) != kFeatureCount) {
    throw InternalError("reranker: the model has " + std::to_string(model.classifier.weights.size()) + " weights");
  }
  // Resolve every document and query first, so that bad input fails before any work.
  std::vector<std::vector<std::uint32_t>> documents(input.rankings.size());
  std::vector<const std::string*> texts(input.rankings.size());
  for (std::size_t q = 0; q < input.rankings.size(); ++q) {
    const auto& ranking = input.rankings[q];
    const auto text = query_text.find(ranking.query_id);
    if (text == query_text.end()) {
      throw DataError(source, "query " + ranking.query_id + " is not among the dataset's queries");
    }
    texts[q] = &text->second;
    for (std::size_t r = 0; r < ranking.documents.size(); ++r) {
      const std::int64_t position = extractor.find_document(ranking.documents[r].doc_id);
      if (position < 0) {
        throw DataError(source, "query " + ranking.query_id + ", rank " + std::to_string(r + 1) + ": document " +
                                    ranking.documents[r].doc_id + " is not in the corpus");
      }
      documents[q].push_back(static_cast<std::uint32_t>(position));
    }
  }

  run::Run output;
  output.tag = options.tag.empty() ? input.tag + "+rerank" : options.tag;
  output.rankings.resize(input.rankings.size());
  const long count = static_cast<long>(input.rankings.size());
#pragma omp parallel
  {
  ClaimTables tables(extractor);
#pragma omp for schedule(dynamic, 8)
  for (long q = 0; q < count; ++q) {
    const auto qi = static_cast<std::size_t>(q);
    const auto& ranking = input.rankings[qi];
    const PreparedQuery prepared = extractor.prepare(*texts[qi]);
    tables.load(prepared);
    // One pass over the claim's postings scores every document, in the same order of additions
    // as Searcher::score, so the values are identical and cheaper than 50 separate lookups.
    const std::vector<double> bm25_scores = extractor.searcher().score_all(*texts[qi]);
    const std::size_t head = std::min(options.rerank_depth, ranking.documents.size());
    std::vector<double> probabilities(head);
    Eigen::VectorXd row(static_cast<Eigen::Index>(kFeatureCount));
    for (std::size_t r = 0; r < head; ++r) {
      const std::uint32_t document = documents[qi][r];
      const FeatureRow values = tables.features(document, bm25_scores[document]);
      for (std::size_t f = 0; f < kFeatureCount; ++f) row[static_cast<Eigen::Index>(f)] = values[f];
      probabilities[r] = model.classifier.predict_probability(row);
    }
    output.rankings[qi] = {ranking.query_id, reorder_by_probability(ranking.documents, probabilities)};
  }
  }
  output.reindex();
  return output;
}

}  // namespace claimrag::rerank
