#include "claimrag/rerank/logistic_regression.hpp"

#include <spdlog/spdlog.h>

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::rerank {

namespace {

// The training problem in liblinear's form: variables v = (w, b), rows x̃_i = (x_i, s).
struct Problem {
  const RowMatrixXd& X;
  std::vector<double> sign;  // y_i = ±1
  std::vector<double> cost;  // C_i
  bool intercept;
  double scaling;
  Eigen::Index variables;
};

struct Evaluation {
  double objective = 0.0;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd hessian;  // only filled when asked for
};

double sigmoid(double t) {
  if (t >= 0.0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

// ln(1 + e^t) without overflow for large t or loss of precision for very negative t.
double softplus(double t) { return t > 0.0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

void validate_data(const RowMatrixXd& X, std::span<const int> labels) {
  if (X.rows() == 0 || X.cols() == 0) {
    throw UsageError("logistic regression: X must have at least one row and one column, got " +
                     std::to_string(X.rows()) + "x" + std::to_string(X.cols()));
  }
  if (static_cast<std::size_t>(X.rows()) != labels.size()) {
    throw UsageError("logistic regression: X has " + std::to_string(X.rows()) + " rows but " +
                     std::to_string(labels.size()) + " labels were given");
  }
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      if (!std::isfinite(X(i, j))) {
        throw DataError("logistic regression", "feature " + std::to_string(j) + " of row " +
                                                   std::to_string(i) + " is not finite");
      }
    }
  }
}

void validate_options(const LogisticRegressionOptions& options) {
  if (!(options.C > 0.0) || !std::isfinite(options.C)) {
    throw UsageError("logistic regression: C must be positive and finite");
  }
  if (!(options.intercept_scaling > 0.0) || !std::isfinite(options.intercept_scaling)) {
    throw UsageError("logistic regression: intercept_scaling must be positive and finite");
  }
  if (!(options.tolerance >= 0.0)) {
    throw UsageError("logistic regression: tolerance must be non-negative");
  }
  if (options.max_iterations < 1) {
    throw UsageError("logistic regression: max_iterations must be at least 1");
  }
}

Problem make_problem(const RowMatrixXd& X, std::span<const int> labels,
                     const LogisticRegressionOptions& options, bool intercept, double scaling) {
  validate_data(X, labels);
  const std::array<double, 2> weights = class_weights(labels, options.class_weight);
  Problem problem{X, {}, {}, intercept, scaling, X.cols() + (intercept ? 1 : 0)};
  problem.sign.reserve(labels.size());
  problem.cost.reserve(labels.size());
  for (const int label : labels) {
    problem.sign.push_back(label == 1 ? 1.0 : -1.0);
    problem.cost.push_back(options.C * weights[static_cast<std::size_t>(label)]);
  }
  return problem;
}

// One pass over the rows in order (so the sums, and the result, do not depend on threads).
Evaluation evaluate(const Problem& problem, const Eigen::VectorXd& v, bool with_hessian) {
  const Eigen::Index d = problem.X.cols();
  const Eigen::Index p = problem.variables;
  Evaluation result;
  result.objective = 0.5 * v.squaredNorm();
  result.gradient = v;
  if (with_hessian) result.hessian = Eigen::MatrixXd::Identity(p, p);
  const auto w = v.head(d);
  const double bias = problem.intercept ? problem.scaling * v[d] : 0.0;
  Eigen::VectorXd row(p);
  for (Eigen::Index i = 0; i < problem.X.rows(); ++i) {
    row.head(d) = problem.X.row(i).transpose();
    if (problem.intercept) row[d] = problem.scaling;
    const double z = problem.X.row(i).dot(w) + bias;
    const double y = problem.sign[static_cast<std::size_t>(i)];
    const double c = problem.cost[static_cast<std::size_t>(i)];
    result.objective += c * softplus(-y * z);
    // d/dz of C·ln(1 + e^{−yz}) = −C·y·σ(−yz).
    const double dz = -c * y * sigmoid(-y * z);
    for (Eigen::Index j = 0; j < p; ++j) result.gradient[j] += dz * row[j];
    if (with_hessian) {
      const double s = sigmoid(z);
      const double curvature = c * s * (1.0 - s);
      for (Eigen::Index j = 0; j < p; ++j) {
        const double scaled = curvature * row[j];
        for (Eigen::Index k = j; k < p; ++k) result.hessian(j, k) += scaled * row[k];
      }
    }
  }
  if (with_hessian) {
    result.hessian.triangularView<Eigen::StrictlyLower>() =
        result.hessian.triangularView<Eigen::StrictlyUpper>().transpose();
  }
  return result;
}

Eigen::VectorXd variables_of(const LogisticRegressionModel& model) {
  const Eigen::Index d = model.weights.size();
  Eigen::VectorXd v(d + (model.fit_intercept ? 1 : 0));
  v.head(d) = model.weights;
  if (model.fit_intercept) v[d] = model.intercept / model.intercept_scaling;
  return v;
}

void check_model_shape(const RowMatrixXd& X, const LogisticRegressionModel& model) {
  if (model.weights.size() != X.cols()) {
    throw UsageError("logistic regression: the model has " + std::to_string(model.weights.size()) +
                     " weights but X has " + std::to_string(X.cols()) + " columns");
  }
}

}  // namespace

std::array<double, 2> class_weights(std::span<const int> labels, ClassWeight class_weight) {
  std::array<std::size_t, 2> counts{0, 0};
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] != 0 && labels[i] != 1) {
      throw UsageError("logistic regression: label " + std::to_string(i) + " is " +
                       std::to_string(labels[i]) + ", not 0 or 1");
    }
    ++counts[static_cast<std::size_t>(labels[i])];
  }
  if (class_weight == ClassWeight::none) return {1.0, 1.0};
  if (counts[0] == 0 || counts[1] == 0) {
    throw UsageError("logistic regression: balanced class weights need both labels present");
  }
  const double n = static_cast<double>(labels.size());
  return {n / (2.0 * static_cast<double>(counts[0])), n / (2.0 * static_cast<double>(counts[1]))};
}

double LogisticRegressionModel::decision_function(const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return weights.dot(x) + intercept;
}

double LogisticRegressionModel::predict_probability(
    const Eigen::Ref<const Eigen::VectorXd>& x) const {
  return sigmoid(decision_function(x));
}

Eigen::VectorXd LogisticRegressionModel::predict_probabilities(const RowMatrixXd& X) const {
  if (X.cols() != weights.size()) {
    throw UsageError("logistic regression: X has " + std::to_string(X.cols()) +
                     " columns but the model has " + std::to_string(weights.size()) + " weights");
  }
  Eigen::VectorXd probabilities(X.rows());
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    probabilities[i] = sigmoid(X.row(i).dot(weights) + intercept);
  }
  return probabilities;
}

LogisticRegressionModel fit_logistic_regression(const RowMatrixXd& X, std::span<const int> labels,
                                                const LogisticRegressionOptions& options) {
  validate_options(options);
  const Problem problem =
      make_problem(X, labels, options, options.fit_intercept, options.intercept_scaling);
  for (const int label : {0, 1}) {
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) {
      throw UsageError("logistic regression: the labels are all " + std::to_string(1 - label) +
                       "; both classes are needed");
    }
  }

  Eigen::VectorXd v = Eigen::VectorXd::Zero(problem.variables);
  Evaluation current = evaluate(problem, v, true);
  const double initial_norm = current.gradient.norm();
  const double threshold = options.tolerance * initial_norm;
  // Armijo's sufficient-decrease constant, and how far f may rise from rounding alone.
  constexpr double kArmijo = 1e-4;
  const double rounding = 16.0 * std::numeric_limits<double>::epsilon();

  int iterations = 0;
  bool converged = current.gradient.norm() <= threshold;
  bool stalled = false;
  while (!converged && iterations < options.max_iterations) {
    const Eigen::VectorXd step = current.hessian.llt().solve(-current.gradient);
    const double slope = current.gradient.dot(step);  // < 0: H is positive definite
    double t = 1.0;
    Evaluation candidate;
    bool accepted = false;
    for (int halving = 0; halving < 60 && !accepted; ++halving, t *= 0.5) {
      candidate = evaluate(problem, v + t * step, true);
      const bool decrease = candidate.objective <= current.objective + kArmijo * t * slope;
      // Near the optimum f stops changing in double precision while the gradient still
      // shrinks quadratically: accept a step that is flat up to rounding and reduces it.
      const bool flat_but_better =
          candidate.objective <= current.objective * (1.0 + rounding) &&
          candidate.gradient.norm() < current.gradient.norm();
      if (decrease || flat_but_better) {
        v += t * step;
        accepted = true;
      }
    }
    if (!accepted) {
      stalled = true;
      break;
    }
    current = std::move(candidate);
    ++iterations;
    converged = current.gradient.norm() <= threshold;
  }

  LogisticRegressionModel model;
  model.fit_intercept = options.fit_intercept;
  model.intercept_scaling = options.intercept_scaling;
  model.weights = v.head(X.cols());
  model.intercept = options.fit_intercept ? options.intercept_scaling * v[X.cols()] : 0.0;
  model.iterations = iterations;
  model.converged = converged;
  model.objective = current.objective;
  model.gradient_norm = current.gradient.norm();
  model.initial_gradient_norm = initial_norm;
  if (!converged) {
    spdlog::warn(
        "logistic regression did not converge ({} after {} Newton iterations): "
        "|grad f| = {:.3e}, {:.3e} of its initial value, tolerance {:.1e}",
        stalled ? "line search stalled" : "max_iterations reached", iterations,
        model.gradient_norm, initial_norm > 0 ? model.gradient_norm / initial_norm : 0.0,
        options.tolerance);
  }
  return model;
}

double logistic_objective(const RowMatrixXd& X, std::span<const int> labels,
                          const LogisticRegressionModel& model,
                          const LogisticRegressionOptions& options) {
  check_model_shape(X, model);
  const Problem problem =
      make_problem(X, labels, options, model.fit_intercept, model.intercept_scaling);
  return evaluate(problem, variables_of(model), false).objective;
}

Eigen::VectorXd logistic_gradient(const RowMatrixXd& X, std::span<const int> labels,
                                  const LogisticRegressionModel& model,
                                  const LogisticRegressionOptions& options) {
  check_model_shape(X, model);
  const Problem problem =
      make_problem(X, labels, options, model.fit_intercept, model.intercept_scaling);
  return evaluate(problem, variables_of(model), false).gradient;
}

}  // namespace claimrag::rerank
