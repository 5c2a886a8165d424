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

BootstrapInterval cluster_bootstrap(std::span<const std::size_t> cluster_of,
                                    const std::function<double(std::span<const std::size_t>)>& statistic,
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
  BootstrapInterval interval;
  interval.estimate = statistic(all);
  interval.resamples = options.resamples;

  std::mt19937_64 generator(options.seed);
  // Not std::uniform_int_distribution: its output is implementation-defined, and the interval
  // must be the same bytes with any standard library.
  const auto draw = [&](std::size_t n) { return static_cast<std::size_t>(generator() % n); };
  std::vector<std::size_t> drawn(clusters.size());
  std::vector<std::size_t> items;
  std::vector<double> values;
  values.reserve(options.resamples);
  for (std::size_t r = 0; r < options.resamples; ++r) {
    for (auto& c : drawn) c = draw(clusters.size());
    std::sort(drawn.begin(), drawn.end());
    items.clear();
    for (const std::size_t c : drawn) items.insert(items.end(), clusters[c]->begin(), clusters[c]->end());
    values.push_back(statistic(items));
  }
  std::sort(values.begin(), values.end());
  interval.lower = quantile(values, (1.0 - options.level) / 2.0);
  interval.upper = quantile(values, (1.0 + options.level) / 2.0);
  return interval;
}

}  // namespace claimrag::metrics
