#include "claimrag/retrieval/conditional_logit.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/sequential_eigen.hpp"

namespace claimrag::retrieval {
namespace {

struct Derivatives {
  double value = 0;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd hessian;
};

/// How far group_losses differentiates: the line search needs the value alone.
enum class Order { value, gradient, hessian };

/// The loss of every group of every claim, summed (not yet divided by the group count), with its
/// gradient and Hessian as far as `order` asks. Groups are visited in claim order and each is
/// reduced by the same Eigen expressions, so sums are reproducible (and the value is the same
/// whatever the order).
Derivatives group_losses(std::span<const CandidateGroup> claims, const Eigen::VectorXd& w, Order order,
                         std::size_t& groups) {
  const Eigen::Index d = w.size();
  const bool with_gradient = order != Order::value, with_hessian = order == Order::hessian;
  Derivatives total{0, with_gradient ? Eigen::VectorXd::Zero(d) : Eigen::VectorXd(),
                    with_hessian ? Eigen::MatrixXd::Zero(d, d) : Eigen::MatrixXd()};
  groups = 0;
  Eigen::VectorXd probability;
  for (const auto& claim : claims) {
    const Eigen::Index n = claim.features.rows();
    const Eigen::VectorXd s = claim.features * w;
    const std::size_t positives = static_cast<std::size_t>(std::count(claim.labels.begin(), claim.labels.end(), 1));
    if (positives == 0 || positives == claim.labels.size()) continue;
    for (Eigen::Index p = 0; p < n; ++p) {
      if (claim.labels[static_cast<std::size_t>(p)] == 0) continue;
      ++groups;
      // The group: p and every non-relevant row; the claim's other relevant rows get probability 0.
      double top = -std::numeric_limits<double>::infinity();
      for (Eigen::Index i = 0; i < n; ++i) {
        if (i == p || claim.labels[static_cast<std::size_t>(i)] == 0) top = std::max(top, s[i]);
      }
      probability.setZero(n);
      for (Eigen::Index i = 0; i < n; ++i) {
        if (i == p || claim.labels[static_cast<std::size_t>(i)] == 0) probability[i] = std::exp(s[i] - top);
      }
      const double z = probability.sum();
      probability /= z;
      total.value += -s[p] + top + std::log(z);
      if (!with_gradient) continue;
      const Eigen::VectorXd mean = claim.features.transpose() * probability;
      total.gradient += mean - claim.features.row(p).transpose();
      if (!with_hessian) continue;
      total.hessian.noalias() += claim.features.transpose() * probability.asDiagonal() * claim.features;
      total.hessian.noalias() -= mean * mean.transpose();
    }
  }
  return total;
}

void check(std::span<const CandidateGroup> claims, double l2) {
  if (!(l2 > 0)) throw UsageError("conditional logit: l2 must be positive");
  Eigen::Index d = -1;
  for (const auto& claim : claims) {
    if (claim.labels.size() != static_cast<std::size_t>(claim.features.rows())) {
      throw UsageError("conditional logit: a claim has " + std::to_string(claim.labels.size()) + " labels for " +
                       std::to_string(claim.features.rows()) + " rows");
    }
    if (d >= 0 && claim.features.cols() != d) throw UsageError("conditional logit: claims have different feature counts");
    d = claim.features.cols();
    for (const int label : claim.labels) {
      if (label != 0 && label != 1) throw UsageError("conditional logit: labels must be 0 or 1");
    }
  }
}

}  // namespace

double conditional_logit_objective(std::span<const CandidateGroup> claims, const Eigen::VectorXd& weights, double l2) {
  check(claims, l2);
  std::size_t groups = 0;
  const auto losses = group_losses(claims, weights, Order::value, groups);
  return 0.5 * l2 * weights.squaredNorm() + (groups > 0 ? losses.value / static_cast<double>(groups) : 0.0);
}

Eigen::VectorXd conditional_logit_gradient(std::span<const CandidateGroup> claims, const Eigen::VectorXd& weights, double l2) {
  check(claims, l2);
  std::size_t groups = 0;
  const auto losses = group_losses(claims, weights, Order::gradient, groups);
  return l2 * weights + (groups > 0 ? Eigen::VectorXd(losses.gradient / static_cast<double>(groups)) : Eigen::VectorXd(losses.gradient));
}

ConditionalLogitModel fit_conditional_logit(std::span<const CandidateGroup> claims, const ConditionalLogitOptions& options) {
  check(claims, options.l2);
  if (claims.empty()) throw UsageError("conditional logit: no claims");
  const Eigen::Index d = claims.front().features.cols();
  // Eigen's threaded products split their sums by the thread count; the fit must not depend on it.
  const SequentialEigenProducts sequential;
  ConditionalLogitModel model{Eigen::VectorXd::Zero(d), 0, false, 0};
  std::size_t groups = 0;
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    auto losses = group_losses(claims, model.weights, Order::hessian, groups);
    if (groups == 0) throw UsageError("conditional logit: no claim has both a relevant and a non-relevant candidate");
    const double scale = 1.0 / static_cast<double>(groups);
    const double value = 0.5 * options.l2 * model.weights.squaredNorm() + scale * losses.value;
    const Eigen::VectorXd gradient = options.l2 * model.weights + scale * losses.gradient;
    model.objective = value;
    if (gradient.norm() <= options.tolerance) {
      model.converged = true;
      return model;
    }
    const Eigen::MatrixXd hessian = options.l2 * Eigen::MatrixXd::Identity(d, d) + scale * losses.hessian;
    const Eigen::VectorXd step = -hessian.ldlt().solve(gradient);
    double t = 1.0;
    const double slope = gradient.dot(step);
    while (t > 1e-12) {
      const Eigen::VectorXd trial = model.weights + t * step;
      if (conditional_logit_objective(claims, trial, options.l2) <= value + 1e-4 * t * slope) break;
      t *= 0.5;
    }
    if (t <= 1e-12) {  // no step lowers f any more: at the optimum up to rounding
      model.converged = true;
      return model;
    }
    model.weights += t * step;
    model.iterations = iteration + 1;
    // Newton's decrement λ² = −∇fᵀ·step bounds f − f* near the optimum; below this, the ranking
    // cannot change in any digit that matters and further steps only chase rounding.
    if (-slope <= options.decrement) {
      model.converged = true;
      break;
    }
  }
  model.objective = conditional_logit_objective(claims, model.weights, options.l2);
  return model;
}

}  // namespace claimrag::retrieval
