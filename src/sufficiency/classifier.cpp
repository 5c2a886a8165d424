#include "claimrag/sufficiency/classifier.hpp"

#include <cmath>

#include "claimrag/selective/calibration.hpp"
#include "claimrag/sequential_eigen.hpp"

namespace claimrag::sufficiency {

Eigen::MatrixXd LinearClassifier::logits(const linear::RowMatrixXd& X) const {
  const SequentialEigenProducts sequential;
  linear::RowMatrixXd Z = (X.rowwise() - mean).array().rowwise() / scale.array();
  Eigen::MatrixXd out = Z * model.weights.transpose();
  out.rowwise() += model.bias.transpose();
  return out;
}

Eigen::MatrixXd LinearClassifier::shifted_logits(const linear::RowMatrixXd& X) const {
  Eigen::MatrixXd out = logits(X);
  out.rowwise() += logit_shift.transpose();
  return out;
}

Eigen::MatrixXd LinearClassifier::probabilities(const linear::RowMatrixXd& X, bool calibrated) const {
  return calibrated ? selective::softmax_rows(shifted_logits(X), temperature) : selective::softmax_rows(logits(X), 1.0);
}

LinearClassifier fit_classifier(const linear::RowMatrixXd& X, std::span<const int> labels, int classes, double l2) {
  const SequentialEigenProducts sequential;
  LinearClassifier classifier;
  classifier.mean = X.colwise().mean();
  classifier.scale = Eigen::RowVectorXd::Ones(X.cols());
  if (X.rows() > 1) {
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double sd = std::sqrt((X.col(j).array() - classifier.mean(j)).square().sum() / static_cast<double>(X.rows()));
      if (sd > 1e-12) classifier.scale(j) = sd;
    }
  }
  const linear::RowMatrixXd Z = (X.rowwise() - classifier.mean).array().rowwise() / classifier.scale.array();
  linear::SoftmaxRegressionOptions options;
  options.l2 = l2;
  // Balanced class weights n / (K·n_k): Insufficient outnumbers the others by construction, and
  // macro-F1 weighs every class alike. A class absent from the labels keeps weight 1.
  std::vector<double> counts(static_cast<std::size_t>(classes), 0.0);
  for (const int label : labels) {
    if (label >= 0 && label < classes) counts[static_cast<std::size_t>(label)] += 1;
  }
  for (const double count : counts) {
    options.class_weights.push_back(count > 0 ? static_cast<double>(labels.size()) / (classes * count) : 1.0);
  }
  classifier.model = linear::fit_softmax_regression(Z, labels, classes, options);
  classifier.class_weights = Eigen::Map<const Eigen::VectorXd>(options.class_weights.data(), classes);
  classifier.logit_shift = Eigen::VectorXd::Zero(classes);
  return classifier;
}

void calibrate(LinearClassifier& classifier, const linear::RowMatrixXd& X, std::span<const int> labels, bool prior_correction) {
  classifier.logit_shift = prior_correction ? Eigen::VectorXd(-classifier.class_weights.array().log())
                                            : Eigen::VectorXd::Zero(classifier.model.bias.size());
  classifier.temperature = selective::fit_softmax_temperature(classifier.shifted_logits(X), labels);
}

std::vector<int> arg_max_rows(const Eigen::MatrixXd& probabilities) {
  std::vector<int> out(static_cast<std::size_t>(probabilities.rows()));
  for (Eigen::Index i = 0; i < probabilities.rows(); ++i) {
    Eigen::Index best = 0;
    for (Eigen::Index k = 1; k < probabilities.cols(); ++k) {
      if (probabilities(i, k) > probabilities(i, best)) best = k;
    }
    out[static_cast<std::size_t>(i)] = static_cast<int>(best);
  }
  return out;
}

}  // namespace claimrag::sufficiency
