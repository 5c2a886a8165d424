#include "claimrag/metrics/seen_documents.hpp"

namespace claimrag::metrics {
namespace {

void add(GroupMeans& group, const std::vector<double>& values) {
  if (group.mean.empty()) group.mean.assign(values.size(), 0.0);
  for (std::size_t m = 0; m < values.size(); ++m) group.mean[m] += values[m];
  ++group.queries;
}

void finish(GroupMeans& group, std::size_t metric_count) {
  group.mean.resize(metric_count, 0.0);
  for (auto& value : group.mean) value = group.queries > 0 ? value / static_cast<double>(group.queries) : 0.0;
}

}  // namespace

std::set<std::string> relevant_documents(const dataset::Qrels& qrels) {
  std::set<std::string> documents;
  for (const auto& [query_id, judgments] : qrels.judgments) {
    for (const auto& [doc_id, grade] : judgments) {
      if (grade > 0) documents.insert(doc_id);
    }
  }
  return documents;
}

SeenSplit split_by_seen_documents(const Evaluation& evaluation, const dataset::Qrels& qrels,
                                  const std::set<std::string>& seen_documents) {
  SeenSplit split;
  for (std::size_t q = 0; q < evaluation.query_ids.size(); ++q) {
    std::size_t seen = 0, relevant = 0;
    for (const auto& [doc_id, grade] : qrels.judgments.at(evaluation.query_ids[q])) {
      if (grade <= 0) continue;
      ++relevant;
      seen += seen_documents.contains(doc_id) ? 1 : 0;
    }
    if (seen == relevant) {
      add(split.seen, evaluation.per_query[q]);
    } else if (seen == 0) {
      add(split.unseen, evaluation.per_query[q]);
    } else {
      ++split.mixed;
    }
  }
  finish(split.seen, evaluation.metrics.size());
  finish(split.unseen, evaluation.metrics.size());
  return split;
}

}  // namespace claimrag::metrics
