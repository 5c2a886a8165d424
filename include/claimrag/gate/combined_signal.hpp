#pragma once
// The combined confidence signal: a logistic regression over several signals, predicting that an
// answer is grounded (a relevant document in the system's top-10), calibrated by temperature
// scaling on held-out training claims.
//
// Recipe: the training claims are shuffled with the seeded generator and split into a fitting
// part and a held-out part (`held_out_fraction`); features are standardised with the fitting
// part's means and standard deviations; the regression is scikit-learn's liblinear optimum with
// C = 1 and no class weights (so its probabilities estimate the base rate); the temperature is
// fitted on the held-out part's logits. The signal is the calibrated probability.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "claimrag/rerank/logistic_regression.hpp"

namespace claimrag::gate {

struct CombinedSignalOptions {
  double held_out_fraction = 0.25;
  double C = 1.0;
};

struct CombinedSignal {
  std::vector<std::string> features;  ///< signal names, in column order
  std::vector<double> means, deviations;
  rerank::LogisticRegressionModel model;
  double temperature = 1.0;
  double held_out_ece_before = 0;  ///< ECE of the uncalibrated probabilities on the held-out claims
  double held_out_ece_after = 0;   ///< ECE after temperature scaling

  /// The calibrated probability for one row of raw (unstandardised) feature values.
  [[nodiscard]] double probability(const std::vector<double>& row) const;
  /// The uncalibrated logit for one row.
  [[nodiscard]] double logit(const std::vector<double>& row) const;
};

/// Fits on `rows` (claims × features, raw signal values) with `grounded` labels (1 = not a
/// hallucination). Both labels must occur in the fitting part (UsageError otherwise).
CombinedSignal fit_combined_signal(const std::vector<std::string>& features, const std::vector<std::vector<double>>& rows,
                                   const std::vector<int>& grounded, const CombinedSignalOptions& options, std::mt19937_64& rng);

}  // namespace claimrag::gate
