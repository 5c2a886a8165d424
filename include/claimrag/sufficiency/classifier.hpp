#pragma once
// A standardised multinomial logistic regression over any feature matrix (linear/
// softmax_regression.hpp, Newton with L2), with an optional temperature: what SURE's aggregator,
// the pooling baselines and the shortcut baselines all are, so that they differ only in what they
// read. Columns are standardised with the training rows' mean and standard deviation (a constant
// column is centred only). Classes are weighted n / (K·n_k) (balanced), since the benchmark's
// Insufficient examples outnumber the others by construction and macro-F1 weighs classes alike.

#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "claimrag/linear/softmax_regression.hpp"

namespace claimrag::sufficiency {

struct LinearClassifier {
  Eigen::RowVectorXd mean;    ///< per column
  Eigen::RowVectorXd scale;   ///< per column, > 0
  linear::SoftmaxRegressionModel model;
  Eigen::VectorXd class_weights;  ///< per class, what the fit weighted it by
  /// Added to the logits before the temperature when calibrated (zeros unless calibrate() set it).
  Eigen::VectorXd logit_shift;
  double temperature = 1.0;   ///< calibrated logits are divided by it

  /// n×K logits (before the temperature).
  [[nodiscard]] Eigen::MatrixXd logits(const linear::RowMatrixXd& X) const;
  /// n×K logits + logit_shift, what the temperature divides.
  [[nodiscard]] Eigen::MatrixXd shifted_logits(const linear::RowMatrixXd& X) const;
  /// n×K probabilities softmax((logits + logit_shift) / temperature), or softmax(logits) when not
  /// calibrated.
  [[nodiscard]] Eigen::MatrixXd probabilities(const linear::RowMatrixXd& X, bool calibrated = true) const;
};

/// Fits on X (n×d) with labels in [0, classes). Throws as fit_softmax_regression.
LinearClassifier fit_classifier(const linear::RowMatrixXd& X, std::span<const int> labels, int classes, double l2);

/// Calibrates on (X, labels): with `prior_correction`, first undoes the balanced class weights by
/// logit_shift = −ln(class weight) (a fit weighted by w_k estimates p(k | x)·w_k up to a constant,
/// so the shift restores the training priors); then the temperature by fit_softmax_temperature
/// on the shifted logits.
void calibrate(LinearClassifier& classifier, const linear::RowMatrixXd& X, std::span<const int> labels, bool prior_correction);

/// Argmax of each row (ties: the lower class).
std::vector<int> arg_max_rows(const Eigen::MatrixXd& probabilities);

}  // namespace claimrag::sufficiency
