#pragma once
// The difference between two rankings' means of each per-query metric over the same queries, with
// a paired percentile-bootstrap interval (queries drawn with replacement, the same draw for both
// rankings) and its two-sided p-value (metrics/bootstrap.hpp). Whether a gain of a few hundredths
// of nDCG over 300 claims is more than the draw of the claims is what this answers.
#include <vector>

#include "claimrag/metrics/bootstrap.hpp"
#include "claimrag/metrics/ranking.hpp"

namespace claimrag::metrics {

struct PairedDifference {
  double difference = 0;  ///< mean of a minus mean of b
  double lower = 0;       ///< the bootstrap interval of the difference
  double upper = 0;
  double p_value = 1;     ///< of "the difference is 0"
};

/// One difference per metric, a minus b. UsageError unless both evaluate the same queries in the
/// same order with the same metrics, and at least one query.
std::vector<PairedDifference> paired_differences(const Evaluation& a, const Evaluation& b, const BootstrapOptions& options);

}  // namespace claimrag::metrics
