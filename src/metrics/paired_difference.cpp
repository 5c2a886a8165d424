#include "claimrag/metrics/paired_difference.hpp"

#include <string>

#include "claimrag/error.hpp"

namespace claimrag::metrics {

std::vector<PairedDifference> paired_differences(const Evaluation& a, const Evaluation& b,
                                                 std::span<const std::size_t> cluster_of, const BootstrapOptions& options) {
  if (a.query_ids != b.query_ids || a.metrics != b.metrics) {
    throw UsageError("paired differences: the two evaluations cover other queries or metrics");
  }
  if (a.query_ids.empty()) throw UsageError("paired differences: no query");
  if (cluster_of.size() != a.query_ids.size()) {
    throw UsageError("paired differences: " + std::to_string(cluster_of.size()) + " clusters for " +
                     std::to_string(a.query_ids.size()) + " queries");
  }
  const std::size_t metric_count = a.metrics.size();
  const auto distribution = cluster_bootstrap_many(
      cluster_of,
      [&](std::span<const std::size_t> items) {
        std::vector<double> means(metric_count, 0.0);
        for (const auto q : items) {
          for (std::size_t m = 0; m < metric_count; ++m) means[m] += a.per_query[q][m] - b.per_query[q][m];
        }
        for (auto& mean : means) mean /= static_cast<double>(items.size());
        return means;
      },
      options);
  std::vector<PairedDifference> differences;
  for (std::size_t m = 0; m < metric_count; ++m) {
    const auto interval = percentile_interval(distribution.resampled[m], distribution.estimates[m], options.level);
    differences.push_back({interval.estimate, interval.lower, interval.upper, bootstrap_p_value(distribution.resampled[m])});
  }
  return differences;
}

}  // namespace claimrag::metrics
