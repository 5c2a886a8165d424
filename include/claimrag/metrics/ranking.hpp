#pragma once
// Ranking metrics of a run against qrels, per query and averaged.
//
// nDCG@k: binary gains (grade > 0 is relevant), discount 1/log2(rank + 1), ideal DCG from the
// number of relevant documents in the qrels (min(k, R) of them). Recall@k: relevant documents in
// the top k over all relevant documents of the query.
//
// Which queries count: those the qrels judge with at least one relevant document. A judged query
// the run lacks scores 0 on every metric (and is counted in `queries_missing_from_run`); a run
// query the qrels do not judge is left out of the means (counted in `queries_without_judgments`);
// a judged query with no relevant document is left out too (`queries_without_relevant`). A run
// with fewer than k documents for a query is scored on what it has; relevant documents absent from
// the run count as missed. Ties in score were already broken by the run's rank order.

#include <cstddef>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/run/run.hpp"

namespace claimrag::metrics {

enum class RankingMetric { ndcg, recall };

struct MetricSpec {
  RankingMetric metric;
  std::size_t cutoff;
  /// "ndcg@10", "recall@100".
  [[nodiscard]] std::string name() const;
  bool operator==(const MetricSpec&) const = default;
};

/// Parses "ndcg@5,10,20,recall@100": a bare number repeats the previous metric's name.
/// Names: ndcg, recall. Throws UsageError on anything else, a zero cutoff or a duplicate.
std::vector<MetricSpec> parse_metric_list(const std::string& text);

struct Evaluation {
  std::vector<MetricSpec> metrics;
  std::vector<std::string> query_ids;             ///< the evaluated queries, in qrels order
  std::vector<std::vector<double>> per_query;     ///< [query][metric]
  std::vector<double> mean;                       ///< [metric], over query_ids
  std::size_t queries_missing_from_run = 0;
  std::size_t queries_without_judgments = 0;
  std::size_t queries_without_relevant = 0;
};

/// nDCG@k of one ranking given the relevant set; exposed for tests and other stages.
double ndcg_at(const std::vector<run::ScoredDocument>& ranking,
               const std::map<std::string, int>& judgments, std::size_t k);
/// Recall@k of one ranking given the relevant set.
double recall_at(const std::vector<run::ScoredDocument>& ranking,
                 const std::map<std::string, int>& judgments, std::size_t k);

Evaluation evaluate_run(const run::Run& run, const dataset::Qrels& qrels,
                        const std::vector<MetricSpec>& metrics);

}  // namespace claimrag::metrics
