#pragma once
// Test queries split by whether a training split already judged their relevant documents
// relevant. A ranker trained on the training queries can learn those documents themselves (a dense
// encoder does), which a cross-validation grouped by document cannot credit; the means of the two
// groups show how much of a system's score rests on documents it was trained on.
//   seen     every relevant document of the query is relevant to some training query
//   unseen   none is
// A query with some of each belongs to neither group and is only counted.
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/metrics/ranking.hpp"

namespace claimrag::metrics {

/// The documents judged relevant (grade > 0) to any query of `qrels`.
std::set<std::string> relevant_documents(const dataset::Qrels& qrels);

struct GroupMeans {
  std::size_t queries = 0;
  std::vector<double> mean;  ///< per metric of the evaluation; 0 for a group without queries
};

struct SeenSplit {
  GroupMeans seen;
  GroupMeans unseen;
  std::size_t mixed = 0;
};

/// Splits `evaluation`'s queries (judged in `qrels`) by `seen_documents`; means are summed in
/// the evaluation's query order.
SeenSplit split_by_seen_documents(const Evaluation& evaluation, const dataset::Qrels& qrels,
                                  const std::set<std::string>& seen_documents);

}  // namespace claimrag::metrics
