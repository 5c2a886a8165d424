#pragma once
// The difference between two rankings' means of each per-query metric over the same queries, with
// a paired percentile-bootstrap interval (clusters of queries drawn with replacement, the same draw
// for both rankings) and its two-sided p-value (metrics/bootstrap.hpp). Whether a gain of a few
// hundredths of nDCG over 300 claims is more than the draw of the claims is what this answers.
// Queries about the same documents (SciFact's claim families) are not independent draws; resampling
// them as clusters keeps the interval from being too narrow.
#include <cstddef>
#include <span>
#include <vector>

#include "claimrag/metrics/bootstrap.hpp"
#include "claimrag/metrics/ranking.hpp"

namespace claimrag::metrics {

struct PairedDifference {
  double difference = 0;  ///< the mean of the per-query differences a − b (= mean a − mean b up to rounding)
  double lower = 0;       ///< the bootstrap interval of the difference
  double upper = 0;
  double p_value = 1;     ///< of "the difference is 0"
};

/// One difference per metric, a minus b; cluster_of[q] is the cluster of the evaluations' query q
/// (any ids). UsageError unless both evaluate the same queries in the same order with the same
/// metrics, cluster_of has one entry per query, and there is at least one query.
std::vector<PairedDifference> paired_differences(const Evaluation& a, const Evaluation& b,
                                                 std::span<const std::size_t> cluster_of, const BootstrapOptions& options);

}  // namespace claimrag::metrics
