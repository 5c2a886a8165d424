#include "claimrag/linear/softmax_regression.hpp"

#include <spdlog/spdlog.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <string>

#include "claimrag/error.hpp"

namespace claimrag::linear {
namespace {

struct Problem {
  const RowMatrixXd& X;
  std::span<const int> labels;
  Eigen::Index classes;
  Eigen::VectorXd row_weight;  // c_{y_i} / S
  const SoftmaxRegressionOptions& options;
};

Problem make_problem(const RowMatrixXd& X, std::span<const int> labels, int classes,
                     const SoftmaxRegressionOptions& options) {
  if (classes < 2) throw UsageError("softmax regression: at least two classes are needed");
  if (X.rows() == 0 || X.cols() == 0) throw UsageError("softmax regression: X must have at least one row and one column");
  if (static_cast<std::size_t>(X.rows()) != labels.size()) {
    throw UsageError("softmax regression: X has " + std::to_string(X.rows()) + " rows but " +
                     std::to_string(labels.size()) + " labels were given");
  }
  if (!(options.l2 > 0) || !(options.bias_l2 > 0) || !(options.tolerance >= 0) || options.max_iterations < 1) {
    throw UsageError("softmax regression: l2 and bias_l2 must be positive, tolerance ≥ 0, max_iterations ≥ 1");
  }
  if (!options.class_weights.empty() && options.class_weights.size() != static_cast<std::size_t>(classes)) {
    throw UsageError("softmax regression: class_weights needs one entry per class");
  }
  for (const double weight : options.class_weights) {
    if (!(weight > 0) || !std::isfinite(weight)) throw UsageError("softmax regression: class weights must be positive");
  }
  if (!X.allFinite()) throw DataError("softmax regression", "a feature is not finite");
  Eigen::VectorXd row_weight(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    const int label = labels[static_cast<std::size_t>(i)];
    if (label < 0 || label >= classes) throw UsageError("softmax regression: label " + std::to_string(label) + " out of range");
    row_weight(i) = options.class_weights.empty() ? 1.0 : options.class_weights[static_cast<std::size_t>(label)];
  }
  row_weight /= row_weight.sum();
  return {X, labels, classes, row_weight, options};
}

// Row-wise softmax of logits, shifted by the row maximum so that no exponential overflows.
Eigen::MatrixXd softmax_rows(Eigen::MatrixXd logits) {
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    logits.row(i).array() -= logits.row(i).maxCoeff();
    logits.row(i) = logits.row(i).array().exp().matrix();
    logits.row(i) /= logits.row(i).sum();
  }
  return logits;
}

Eigen::MatrixXd logits_of(const RowMatrixXd& X, const Eigen::MatrixXd& W, const Eigen::VectorXd& b) {
  Eigen::MatrixXd logits = X * W.transpose();
  logits.rowwise() += b.transpose();
  return logits;
}

double objective_at(const Problem& p, const Eigen::MatrixXd& W, const Eigen::VectorXd& b) {
  const Eigen::MatrixXd logits = logits_of(p.X, W, b);
  double loss = 0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const double top = logits.row(i).maxCoeff();
    const double log_sum = top + std::log((logits.row(i).array() - top).exp().sum());
    loss += p.row_weight(i) * (log_sum - logits(i, p.labels[static_cast<std::size_t>(i)]));
  }
  return loss + 0.5 * p.options.l2 * W.squaredNorm() + 0.5 * p.options.bias_l2 * b.squaredNorm();
}

// Residuals r_ik = c_i/S · (p_ik − [y_i = k]).
Eigen::MatrixXd residuals(const Problem& p, const Eigen::MatrixXd& probabilities) {
  Eigen::MatrixXd r = probabilities;
  for (Eigen::Index i = 0; i < r.rows(); ++i) {
    r(i, p.labels[static_cast<std::size_t>(i)]) -= 1.0;
    r.row(i) *= p.row_weight(i);
  }
  return r;
}

Eigen::VectorXd gradient_at(const Problem& p, const Eigen::MatrixXd& W, const Eigen::VectorXd& b,
                            const Eigen::MatrixXd& probabilities) {
  const Eigen::Index d = p.X.cols();
  const Eigen::MatrixXd r = residuals(p, probabilities);
  const Eigen::MatrixXd dW = r.transpose() * p.X + p.options.l2 * W;  // K×d
  Eigen::VectorXd g(p.classes * (d + 1));
  for (Eigen::Index k = 0; k < p.classes; ++k) {
    g.segment(k * (d + 1), d) = dW.row(k).transpose();
    g(k * (d + 1) + d) = r.col(k).sum() + p.options.bias_l2 * b(k);
  }
  return g;
}

// Block (k, l) = Σ_i c_i/S · p_ik(δ_kl − p_il) · x̃_i x̃_iᵀ, plus the penalties on the diagonal.
Eigen::MatrixXd hessian_at(const Problem& p, const Eigen::MatrixXd& probabilities) {
  const Eigen::Index d = p.X.cols(), n = p.X.rows(), K = p.classes;
  RowMatrixXd Xt(n, d + 1);
  Xt.leftCols(d) = p.X;
  Xt.col(d).setOnes();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(K * (d + 1), K * (d + 1));
  for (Eigen::Index k = 0; k < K; ++k) {
    for (Eigen::Index l = k; l < K; ++l) {
      Eigen::VectorXd s(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        s(i) = p.row_weight(i) * probabilities(i, k) * ((k == l ? 1.0 : 0.0) - probabilities(i, l));
      }
      const Eigen::MatrixXd block = Xt.transpose() * (s.asDiagonal() * Xt);
      H.block(k * (d + 1), l * (d + 1), d + 1, d + 1) = block;
      if (l != k) H.block(l * (d + 1), k * (d + 1), d + 1, d + 1) = block.transpose();
    }
  }
  for (Eigen::Index k = 0; k < K; ++k) {
    for (Eigen::Index j = 0; j < d; ++j) H(k * (d + 1) + j, k * (d + 1) + j) += p.options.l2;
    H(k * (d + 1) + d, k * (d + 1) + d) += p.options.bias_l2;
  }
  return H;
}

}  // namespace

Eigen::MatrixXd SoftmaxRegressionModel::predict_probabilities(const RowMatrixXd& X) const {
  if (X.cols() != weights.cols()) throw UsageError("softmax regression: X has the wrong number of features");
  return softmax_rows(logits_of(X, weights, bias));
}

Eigen::VectorXd SoftmaxRegressionModel::parameters() const {
  const Eigen::Index d = features();
  Eigen::VectorXd theta(classes() * (d + 1));
  for (Eigen::Index k = 0; k < classes(); ++k) {
    theta.segment(k * (d + 1), d) = weights.row(k).transpose();
    theta(k * (d + 1) + d) = bias(k);
  }
  return theta;
}

void SoftmaxRegressionModel::set_parameters(const Eigen::VectorXd& theta, Eigen::Index classes, Eigen::Index features) {
  if (theta.size() != classes * (features + 1)) throw UsageError("softmax regression: θ has the wrong size");
  weights.resize(classes, features);
  bias.resize(classes);
  for (Eigen::Index k = 0; k < classes; ++k) {
    weights.row(k) = theta.segment(k * (features + 1), features).transpose();
    bias(k) = theta(k * (features + 1) + features);
  }
}

double softmax_objective(const RowMatrixXd& X, std::span<const int> labels, const SoftmaxRegressionModel& model,
                         const SoftmaxRegressionOptions& options) {
  const Problem p = make_problem(X, labels, static_cast<int>(model.classes()), options);
  return objective_at(p, model.weights, model.bias);
}

Eigen::VectorXd softmax_gradient(const RowMatrixXd& X, std::span<const int> labels, const SoftmaxRegressionModel& model,
                                 const SoftmaxRegressionOptions& options) {
  const Problem p = make_problem(X, labels, static_cast<int>(model.classes()), options);
  return gradient_at(p, model.weights, model.bias, model.predict_probabilities(X));
}

SoftmaxRegressionModel fit_softmax_regression(const RowMatrixXd& X, std::span<const int> labels, int classes,
                                              const SoftmaxRegressionOptions& options) {
  const Problem p = make_problem(X, labels, classes, options);
  const Eigen::Index d = X.cols();
  SoftmaxRegressionModel model;
  model.weights = Eigen::MatrixXd::Zero(classes, d);
  model.bias = Eigen::VectorXd::Zero(classes);
  double f = objective_at(p, model.weights, model.bias);
  Eigen::MatrixXd probabilities = model.predict_probabilities(X);
  Eigen::VectorXd g = gradient_at(p, model.weights, model.bias, probabilities);
  const double stop = options.tolerance * std::max(1.0, g.norm());
  for (model.iterations = 0; model.iterations < options.max_iterations; ++model.iterations) {
    if (g.norm() <= stop) {
      model.converged = true;
      break;
    }
    const Eigen::VectorXd step = -hessian_at(p, probabilities).ldlt().solve(g);
    const Eigen::VectorXd theta = model.parameters();
    const double slope = g.dot(step);
    double t = 1.0;
    SoftmaxRegressionModel trial = model;
    for (int halvings = 0; halvings < 60; ++halvings, t *= 0.5) {
      trial.set_parameters(theta + t * step, classes, d);
      const double trial_f = objective_at(p, trial.weights, trial.bias);
      if (trial_f <= f + 1e-4 * t * slope) {
        f = trial_f;
        break;
      }
    }
    model.weights = trial.weights;
    model.bias = trial.bias;
    probabilities = model.predict_probabilities(X);
    g = gradient_at(p, model.weights, model.bias, probabilities);
  }
  if (!model.converged && g.norm() <= stop) model.converged = true;
  if (!model.converged) spdlog::warn("softmax regression stopped after {} Newton steps, ‖∇f‖ = {:.3g}", model.iterations, g.norm());
  model.objective = f;
  return model;
}

}  // namespace claimrag::linear
