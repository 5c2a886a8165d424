#pragma once
// Percentile bootstrap intervals for a statistic of paired predictions, resampling clusters.
//
// Items from one cluster (the abstracts of one claim, say) are not independent, so whole clusters
// are drawn with replacement and every item of a drawn cluster enters the resample. Paired: the
// statistic sees the same resample for both systems it compares (e.g. macro-F1 of A minus that of
// B), which is what makes a small difference detectable.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace claimrag::metrics {

struct BootstrapOptions {
  std::size_t resamples = 1000;
  double level = 0.95;      ///< the interval's coverage, in (0, 1)
  std::uint64_t seed = 42;  ///< std::mt19937_64; the same seed gives the same interval
};

struct BootstrapInterval {
  double estimate = 0.0;  ///< the statistic on all items
  double lower = 0.0;     ///< the (1 − level)/2 quantile of the resampled statistics
  double upper = 0.0;     ///< the (1 + level)/2 quantile
  std::size_t resamples = 0;
};

/// `cluster_of[i]` is item i's cluster (any ids); `statistic` receives the items of one resample
/// (indices, repeated when a cluster is drawn twice; in cluster-id order). Quantiles interpolate
/// linearly between order statistics (type 7). Throws UsageError for no items, resamples < 1 or a
/// level outside (0, 1).
BootstrapInterval cluster_bootstrap(std::span<const std::size_t> cluster_of,
                                    const std::function<double(std::span<const std::size_t>)>& statistic,
                                    const BootstrapOptions& options = {});

/// Several statistics on the same resamples (so any two of them are paired).
struct BootstrapDistribution {
  std::vector<double> estimates;               ///< each statistic on all items
  std::vector<std::vector<double>> resampled;  ///< [statistic][resample], in resample order
};

/// The resampling of cluster_bootstrap (the same draws for the same seed and clusters), with a
/// statistic returning one value per statistic (always the same count). Throws as cluster_bootstrap.
BootstrapDistribution cluster_bootstrap_many(
    std::span<const std::size_t> cluster_of,
    const std::function<std::vector<double>(std::span<const std::size_t>)>& statistics,
    const BootstrapOptions& options = {});

/// The percentile interval of resampled values around `estimate` (type-7 quantiles). UsageError
/// for no values or a level outside (0, 1).
BootstrapInterval percentile_interval(std::vector<double> resampled, double estimate, double level);

/// The two-sided percentile-bootstrap p-value of "the statistic is 0" from resampled values of a
/// difference: min(1, 2·min(share ≤ 0, share ≥ 0)), the smallest α at which the (1 − α) percentile
/// interval excludes 0 (up to the quantile interpolation). UsageError for no values.
double bootstrap_p_value(std::span<const double> resampled);

}  // namespace claimrag::metrics
