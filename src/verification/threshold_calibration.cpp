#include "claimrag/verification/threshold_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/metrics/classification.hpp"

namespace claimrag::verification {
namespace {

constexpr auto kS = static_cast<std::size_t>(Label::support);
constexpr auto kC = static_cast<std::size_t>(Label::contradict);

std::vector<Label> labels_at(std::span<const LabelDistribution> probabilities, double threshold, ThresholdRule rule) {
  std::vector<Label> labels;
  labels.reserve(probabilities.size());
  for (const auto& p : probabilities) labels.push_back(thresholded_label(p, threshold, rule));
  return labels;
}

// The grid's best threshold on `items` (ties: nearest the default, then the smaller).
double best_threshold(std::span<const LabelDistribution> probabilities, std::span<const Label> gold, bool two_way,
                      std::span<const std::size_t> items, const CalibrationOptions& options) {
  double best = options.default_threshold, best_score = -1.0;
  for (const double t : threshold_grid()) {
    const auto predicted = labels_at(probabilities, t, options.rule);
    const double score = labelling_score(gold, predicted, two_way, items);
    const bool better = score > best_score ||
                        (score == best_score && std::abs(t - options.default_threshold) < std::abs(best - options.default_threshold));
    if (better) {
      best = t;
      best_score = score;
    }
  }
  return best;
}

}  // namespace

Label thresholded_label(const LabelDistribution& probabilities, double threshold, ThresholdRule rule) {
  if (rule == ThresholdRule::score_above) return probabilities[kS] > threshold ? Label::support : Label::not_enough_info;
  if (std::max(probabilities[kS], probabilities[kC]) < threshold) return Label::not_enough_info;
  return probabilities[kC] > probabilities[kS] ? Label::contradict : Label::support;
}

std::vector<double> threshold_grid() {
  std::vector<double> grid;
  for (int step = 1; step <= 99; ++step) grid.push_back(step / 100.0);
  return grid;
}

double labelling_score(std::span<const Label> gold, std::span<const Label> predicted, bool two_way,
                       std::span<const std::size_t> items) {
  if (!two_way) return metrics::classification_scores<label_count>(gold, predicted, items).macro_f1;
  if (gold.size() != predicted.size() || gold.empty()) throw InternalError("labelling_score: sizes differ or no pair");
  // recall[c] over the items of gold class c (supported, unsupported); classes without items are left out.
  std::size_t hits[2] = {0, 0}, totals[2] = {0, 0};
  const auto count = [&](std::size_t i) {
    const std::size_t c = gold[i] == Label::support ? 0 : 1;
    ++totals[c];
    if ((predicted[i] == Label::support) == (c == 0)) ++hits[c];
  };
  if (items.empty()) {
    for (std::size_t i = 0; i < gold.size(); ++i) count(i);
  } else {
    for (const std::size_t i : items) count(i);
  }
  double sum = 0.0;
  int classes = 0;
  for (int c = 0; c < 2; ++c) {
    if (totals[c] == 0) continue;
    sum += static_cast<double>(hits[c]) / static_cast<double>(totals[c]);
    ++classes;
  }
  return classes == 0 ? 0.0 : sum / classes;
}

ThresholdCalibration calibrate_threshold(std::span<const LabelDistribution> probabilities, std::span<const Label> gold,
                                         std::span<const std::size_t> group_of, bool two_way,
                                         const CalibrationOptions& options) {
  if (probabilities.size() != gold.size() || group_of.size() != gold.size() || gold.empty()) {
    throw InternalError("calibrate_threshold: " + std::to_string(probabilities.size()) + " verdicts, " +
                        std::to_string(gold.size()) + " labels, " + std::to_string(group_of.size()) + " groups");
  }
  if (options.folds < 2) throw UsageError("calibration needs at least 2 folds, not " + std::to_string(options.folds));
  const std::size_t groups = *std::max_element(group_of.begin(), group_of.end()) + 1;
  if (groups < 2) throw UsageError("calibration cross-validates over claims: the pairs hold only one claim");
  ThresholdCalibration result;
  result.groups = groups;
  result.folds = std::min(options.folds, groups);
  // Groups dealt into folds in a seeded order (Fisher-Yates over mt19937_64, written out so that
  // every standard library deals the same folds).
  std::vector<std::size_t> order(groups);
  for (std::size_t g = 0; g < groups; ++g) order[g] = g;
  std::mt19937_64 random(options.seed);
  for (std::size_t i = groups - 1; i > 0; --i) std::swap(order[i], order[static_cast<std::size_t>(random() % (i + 1))]);
  std::vector<std::size_t> fold_of_group(groups);
  for (std::size_t rank = 0; rank < groups; ++rank) fold_of_group[order[rank]] = rank % result.folds;

  std::vector<Label> out_of_fold(gold.size(), Label::not_enough_info);
  for (std::size_t fold = 0; fold < result.folds; ++fold) {
    std::vector<std::size_t> training, held_out;
    for (std::size_t i = 0; i < gold.size(); ++i) (fold_of_group[group_of[i]] == fold ? held_out : training).push_back(i);
    const double t = best_threshold(probabilities, gold, two_way, training, options);
    result.fold_thresholds.push_back(t);
    for (const std::size_t i : held_out) out_of_fold[i] = thresholded_label(probabilities[i], t, options.rule);
  }
  result.cross_validated = labelling_score(gold, out_of_fold, two_way);
  result.interval = metrics::cluster_bootstrap(
      group_of, [&](std::span<const std::size_t> items) { return labelling_score(gold, out_of_fold, two_way, items); },
      {.resamples = options.resamples, .level = 0.95, .seed = options.seed});
  result.threshold = best_threshold(probabilities, gold, two_way, {}, options);
  result.score = labelling_score(gold, labels_at(probabilities, result.threshold, options.rule), two_way);
  result.default_score = labelling_score(gold, labels_at(probabilities, options.default_threshold, options.rule), two_way);
  return result;
}

}  // namespace claimrag::verification
