#include "claimrag/metrics/ranking.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::metrics {

std::string MetricSpec::name() const {
  return std::string(metric == RankingMetric::ndcg ? "ndcg" : "recall") + "@" + std::to_string(cutoff);
}

std::vector<MetricSpec> parse_metric_list(const std::string& text) {
  std::vector<MetricSpec> specs;
  std::string current_name;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t at = item.find('@');
    std::string number = item;
    if (at != std::string::npos) {
      current_name = item.substr(0, at);
      number = item.substr(at + 1);
    }
    if (current_name.empty()) throw UsageError("metric \"" + item + "\" lacks a name (write e.g. ndcg@10)");
    RankingMetric metric;
    if (current_name == "ndcg") {
      metric = RankingMetric::ndcg;
    } else if (current_name == "recall") {
      metric = RankingMetric::recall;
    } else {
      throw UsageError("unknown metric \"" + current_name + "\" (known: ndcg, recall)");
    }
    std::size_t cutoff = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), cutoff);
    if (error != std::errc() || end != number.data() + number.size() || cutoff == 0) {
      throw UsageError("metric \"" + item + "\": the cutoff must be a whole number >= 1");
    }
    const MetricSpec spec{metric, cutoff};
    if (std::find(specs.begin(), specs.end(), spec) != specs.end()) {
      throw UsageError("metric " + spec.name() + " is listed twice");
    }
    specs.push_back(spec);
  }
  return specs;
}

namespace {

std::size_t relevant_count(const std::map<std::string, int>& judgments) {
  return static_cast<std::size_t>(std::count_if(judgments.begin(), judgments.end(),
                                                [](const auto& entry) { return entry.second > 0; }));
}

bool is_relevant(const std::map<std::string, int>& judgments, const std::string& doc_id) {
  const auto found = judgments.find(doc_id);
  return found != judgments.end() && found->second > 0;
}

}  // namespace

double ndcg_at(const std::vector<run::ScoredDocument>& ranking,
               const std::map<std::string, int>& judgments, std::size_t k) {
  const std::size_t relevant = relevant_count(judgments);
  if (relevant == 0) return 0.0;
  double dcg = 0.0;
  for (std::size_t i = 0; i < std::min(k, ranking.size()); ++i) {
    if (is_relevant(judgments, ranking[i].doc_id)) dcg += 1.0 / std::log2(static_cast<double>(i) + 2.0);
  }
  double ideal = 0.0;
  for (std::size_t i = 0; i < std::min(k, relevant); ++i) ideal += 1.0 / std::log2(static_cast<double>(i) + 2.0);
  return dcg / ideal;
}

double recall_at(const std::vector<run::ScoredDocument>& ranking,
                 const std::map<std::string, int>& judgments, std::size_t k) {
  const std::size_t relevant = relevant_count(judgments);
  if (relevant == 0) return 0.0;
  std::size_t found = 0;
  for (std::size_t i = 0; i < std::min(k, ranking.size()); ++i) {
    if (is_relevant(judgments, ranking[i].doc_id)) ++found;
  }
  return static_cast<double>(found) / static_cast<double>(relevant);
}

Evaluation evaluate_run(const run::Run& run, const dataset::Qrels& qrels,
                        const std::vector<MetricSpec>& metrics) {
  Evaluation evaluation;
  evaluation.metrics = metrics;
  evaluation.mean.assign(metrics.size(), 0.0);
  const std::vector<run::ScoredDocument> nothing;
  for (const auto& query_id : qrels.query_order) {
    const auto& judgments = qrels.judgments.at(query_id);
    if (relevant_count(judgments) == 0) {
      ++evaluation.queries_without_relevant;
      continue;
    }
    const run::Ranking* ranking = run.find(query_id);
    if (ranking == nullptr) ++evaluation.queries_missing_from_run;
    const auto& documents = ranking != nullptr ? ranking->documents : nothing;
    std::vector<double> values;
    for (const auto& spec : metrics) {
      values.push_back(spec.metric == RankingMetric::ndcg ? ndcg_at(documents, judgments, spec.cutoff)
                                                          : recall_at(documents, judgments, spec.cutoff));
    }
    evaluation.query_ids.push_back(query_id);
    evaluation.per_query.push_back(std::move(values));
  }
  for (const auto& ranking : run.rankings) {
    if (!qrels.judgments.contains(ranking.query_id)) ++evaluation.queries_without_judgments;
  }
  // Means summed in qrels order, in double, so the result is the same on every machine.
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    double total = 0.0;
    for (const auto& values : evaluation.per_query) total += values[m];
    evaluation.mean[m] = evaluation.per_query.empty() ? 0.0 : total / static_cast<double>(evaluation.per_query.size());
  }
  return evaluation;
}

}  // namespace claimrag::metrics
