#include "claimrag/rerank/training_set.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"

namespace claimrag::rerank {

std::size_t TrainingSet::positives() const {
  return static_cast<std::size_t>(std::count(labels.begin(), labels.end(), 1));
}

TrainingSet build_training_set(const FeatureExtractor& extractor, std::span<const dataset::Query> queries,
                               const dataset::Qrels& qrels, std::size_t depth) {
  if (depth == 0) throw UsageError("reranker training: depth must be >= 1");
  std::vector<const std::map<std::string, int>*> judgments;
  std::vector<std::string_view> texts;
  for (const auto& query : queries) {
    const auto found = qrels.judgments.find(query.id);
    if (found == qrels.judgments.end()) {
      throw UsageError("reranker training: query " + query.id + " has no relevance judgments");
    }
    judgments.push_back(&found->second);
    texts.emplace_back(query.text);
  }
  const auto hits = extractor.searcher().search_many(texts, depth);
  std::vector<std::size_t> first_row(queries.size() + 1, 0);
  for (std::size_t q = 0; q < queries.size(); ++q) first_row[q + 1] = first_row[q] + hits[q].size();
  const std::size_t rows = first_row.back();

  TrainingSet set;
  set.features.resize(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(kFeatureCount));
  set.labels.resize(rows);
  set.query_ids.resize(rows);
  set.documents.resize(rows);
  const auto& doc_ids = extractor.index().doc_ids();
  const long count = static_cast<long>(queries.size());
  // Each claim fills its own rows, so the matrix is the same whatever the thread count.
#pragma omp parallel
  {
  ClaimTables tables(extractor);
#pragma omp for schedule(dynamic, 8)
  for (long q = 0; q < count; ++q) {
    const auto qi = static_cast<std::size_t>(q);
    const PreparedQuery prepared = extractor.prepare(queries[qi].text);
    tables.load(prepared);
    for (std::size_t h = 0; h < hits[qi].size(); ++h) {
      const std::size_t row = first_row[qi] + h;
      const bm25::Hit& hit = hits[qi][h];
      const FeatureRow values = tables.features(hit.document, hit.score);
      for (std::size_t f = 0; f < kFeatureCount; ++f) {
        set.features(static_cast<Eigen::Index>(row), static_cast<Eigen::Index>(f)) = values[f];
      }
      const auto grade = judgments[qi]->find(std::string(doc_ids[hit.document]));
      set.labels[row] = grade != judgments[qi]->end() && grade->second > 0 ? 1 : 0;
      set.query_ids[row] = queries[qi].id;
      set.documents[row] = hit.document;
    }
  }
  }
  return set;
}

}  // namespace claimrag::rerank
