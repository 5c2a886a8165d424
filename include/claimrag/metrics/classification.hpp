#pragma once
// Accuracy, per-class F1 and macro-F1 of a multi-class labelling, for every system that labels
// items with a fixed set of classes (interrogation's Support / Refute / Neutral, sufficiency's
// Supported / Refuted / Insufficient).
//
// F1 of class c = 2·TP / (gold c + predicted c): equal to 2PR/(P+R), and 0 when the class is
// neither gold nor predicted anywhere; such a class still counts in the macro mean, which is
// always over every class (scikit-learn's zero_division=0).

#include <array>
#include <cstddef>
#include <span>

#include "claimrag/error.hpp"

namespace claimrag::metrics {

template <std::size_t Classes>
struct ClassificationScores {
  double accuracy = 0.0;
  double macro_f1 = 0.0;
  std::array<double, Classes> f1{};  ///< indexed by class
  std::size_t items = 0;
};

/// Scores `predicted` against `gold` (labels convertible to an index in [0, Classes)) over the
/// items listed in `items` (indices, repeats allowed: a bootstrap resample), or over every item
/// when `items` is empty. InternalError for sizes that differ, no item, or a label out of range.
template <std::size_t Classes, typename Label>
ClassificationScores<Classes> classification_scores(std::span<const Label> gold, std::span<const Label> predicted,
                                                    std::span<const std::size_t> items = {}) {
  if (gold.size() != predicted.size() || gold.empty()) {
    throw InternalError("classification_scores: " + std::to_string(gold.size()) + " gold labels for " +
                        std::to_string(predicted.size()) + " predictions");
  }
  // confusion[g][p]: items of gold class g predicted as p.
  std::array<std::array<std::size_t, Classes>, Classes> confusion{};
  const auto count = [&](std::size_t i) {
    if (i >= gold.size()) throw InternalError("classification_scores: item index out of range");
    const auto g = static_cast<std::size_t>(gold[i]);
    const auto p = static_cast<std::size_t>(predicted[i]);
    if (g >= Classes || p >= Classes) throw InternalError("classification_scores: label out of range");
    ++confusion[g][p];
  };
  if (items.empty()) {
    for (std::size_t i = 0; i < gold.size(); ++i) count(i);
  } else {
    for (const std::size_t i : items) count(i);
  }
  ClassificationScores<Classes> scores;
  std::size_t correct = 0;
  double f1_sum = 0.0;
  for (std::size_t c = 0; c < Classes; ++c) {
    std::size_t gold_c = 0, predicted_c = 0;
    for (std::size_t o = 0; o < Classes; ++o) {
      gold_c += confusion[c][o];
      predicted_c += confusion[o][c];
    }
    scores.items += gold_c;
    correct += confusion[c][c];
    scores.f1[c] = gold_c + predicted_c == 0 ? 0.0
                                             : 2.0 * static_cast<double>(confusion[c][c]) / static_cast<double>(gold_c + predicted_c);
    f1_sum += scores.f1[c];
  }
  scores.macro_f1 = f1_sum / static_cast<double>(Classes);
  scores.accuracy = static_cast<double>(correct) / static_cast<double>(scores.items);
  return scores;
}

}  // namespace claimrag::metrics
