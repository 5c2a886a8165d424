#include "claimrag/metrics/bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "claimrag/error.hpp"

namespace claimrag::metrics {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

BootstrapDistribution cluster_bootstrap_many(
    std::span<const std::size_t> cluster_of,
    const std::function<std::vector<double>(std::span<const std::size_t>)>& statistics,
    const BootstrapOptions& options) {
  if (cluster_of.empty()) throw UsageError("bootstrap: no items");
  if (options.resamples < 1) throw UsageError("bootstrap: needs at least one resample");
  if (!(options.level > 0.0 && options.level < 1.0)) throw UsageError("bootstrap: the level must lie in (0, 1)");
  std::map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t i = 0; i < cluster_of.size(); ++i) members[cluster_of[i]].push_back(i);
  std::vector<const std::vector<std::size_t>*> clusters;
  for (const auto& [id, items] : members) clusters.push_back(&items);

  std::vector<std::size_t> all(cluster_of.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  BootstrapDistribution distribution;
  distribution.estimates = statistics(all);
  distribution.resampled.assign(distribution.estimates.size(), {});
  for (auto& values : distribution.resampled) values.reserve(options.resamples);

  std::mt19937_64 generator(options.seed);
  // Not std::uniform_int_distribution: its output is implementation-defined, and the interval
  // must be the same bytes with any standard library.
  const auto draw = [&](std::size_t n) { return static_cast<std::size_t>(generator() % n); };
  std::vector<std::size_t> drawn(clusters.size());
  std::vector<std::size_t> items;
  for (std::size_t r = 0; r < options.resamples; ++r) {
    for (auto& c : drawn) c = draw(clusters.size());
    std::sort(drawn.begin(), drawn.end());
    items.clear();
    for (const std::size_t c : drawn) items.insert(items.end(), clusters[c]->begin(), clusters[c]->end());
    const auto values = statistics(items);
    if (values.size() != distribution.estimates.size()) throw InternalError("bootstrap: the statistics changed in number");
    for (std::size_t s = 0; s < values.size(); ++s) distribution.resampled[s].push_back(values[s]);
  }
  return distribution;
}

BootstrapInterval percentile_interval(std::vector<double> resampled, double estimate, double level) {
  if (resampled.empty()) throw UsageError("bootstrap: no resampled values");
  if (!(level > 0.0 && level < 1.0)) throw UsageError("bootstrap: the level must lie in (0, 1)");
  std::sort(resampled.begin(), resampled.end());
  BootstrapInterval interval;
  interval.estimate = estimate;
  interval.resamples = resampled.size();
  interval.lower = quantile(resampled, (1.0 - level) / 2.0);
  interval.upper = quantile(resampled, (1.0 + level) / 2.0);
  return interval;
}

double bootstrap_p_value(std::span<const double> resampled) {
  if (resampled.empty()) throw UsageError("bootstrap: no resampled values");
  std::size_t at_most_zero = 0, at_least_zero = 0;
  for (const double value : resampled) {
    if (value <= 0.0) ++at_most_zero;
    if (value >= 0.0) ++at_least_zero;
  }
  const double n = static_cast<double>(resampled.size());
  return std::min(1.0, 2.0 * static_cast<double>(std::min(at_most_zero, at_least_zero)) / n);
}

BootstrapInterval cluster_bootstrap(std::span<const std::size_t> cluster_of,
                                    const std::function<double(std::span<const std::size_t>)>& statistic,
                                    const BootstrapOptions& options) {
  const auto distribution = cluster_bootstrap_many(
      cluster_of, [&](std::span<const std::size_t> items) { return std::vector<double>{statistic(items)}; }, options);
  return percentile_interval(distribution.resampled.front(), distribution.estimates.front(), options.level);
}

}  // namespace claimrag::metrics
