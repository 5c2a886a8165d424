#include "claimrag/dataset/statistics.hpp"

#include "claimrag/text/tokenizer.hpp"

namespace claimrag::dataset {

DatasetStatistics compute_statistics(const Corpus& corpus, const std::vector<Query>& queries,
                                     const std::map<std::string, Qrels>& splits) {
  DatasetStatistics statistics;
  statistics.documents = corpus.documents.size();
  double total_tokens = 0;
  for (const auto& document : corpus.documents) {
    statistics.document_tokens.push_back(text::count_tokens(document.title) + text::count_tokens(document.text));
    total_tokens += static_cast<double>(statistics.document_tokens.back());
  }
  statistics.mean_document_tokens = total_tokens / static_cast<double>(corpus.documents.size());
  for (const auto& [name, qrels] : splits) {
    SplitStatistics split{name, qrels.judgments.size(), qrels.pair_count, 0.0, {}, judged_documents_missing(qrels, corpus)};
    const auto judged = queries_of_split(queries, qrels, "qrels/" + name + ".tsv");
    double query_tokens = 0;
    for (const auto& query : judged) {
      split.query_tokens.push_back(text::count_tokens(query.text));
      query_tokens += static_cast<double>(split.query_tokens.back());
    }
    split.mean_query_tokens = judged.empty() ? 0.0 : query_tokens / static_cast<double>(judged.size());
    statistics.splits.push_back(split);
  }
  return statistics;
}

}  // namespace claimrag::dataset
