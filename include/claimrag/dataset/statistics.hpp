#pragma once
// Table 1 of the paper: the size of the corpus and of each split, and mean token lengths.

#include <map>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"

namespace claimrag::dataset {

struct SplitStatistics {
  std::string name;
  std::size_t queries = 0;        ///< distinct judged queries
  std::size_t pairs = 0;          ///< judged (query, document) pairs
  double mean_query_tokens = 0;   ///< paper tokenizer, over the judged queries
  std::vector<std::size_t> query_tokens;  ///< per judged query, in qrels order (Figure 2)
  std::vector<std::string> missing_documents;  ///< judged documents the corpus lacks (judged_documents_missing)
};

struct DatasetStatistics {
  std::size_t documents = 0;
  double mean_document_tokens = 0;  ///< paper tokenizer over title + " " + text
  std::vector<std::size_t> document_tokens;  ///< per document, corpus order (Figure 2)
  std::vector<SplitStatistics> splits;  ///< sorted by name
};

/// Statistics of a loaded BEIR dataset; `splits` maps split names to their qrels.
DatasetStatistics compute_statistics(const Corpus& corpus, const std::vector<Query>& queries,
                                     const std::map<std::string, Qrels>& splits);

}  // namespace claimrag::dataset
