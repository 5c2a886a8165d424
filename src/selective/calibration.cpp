#include "claimrag/selective/calibration.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::selective {

double binary_decision_ece(std::span<const double> p_safe, std::span<const int> safe, int bins) {
  if (p_safe.empty() || p_safe.size() != safe.size() || bins < 1) {
    throw InternalError("binary_decision_ece: sizes differ or are zero");
  }
  const auto count_bins = static_cast<std::size_t>(bins);
  std::vector<double> confidence(count_bins, 0.0), correct(count_bins, 0.0), count(count_bins, 0.0);
  for (std::size_t i = 0; i < p_safe.size(); ++i) {
    const double p = p_safe[i];
    if (!(p >= 0.0 && p <= 1.0)) throw InternalError("binary_decision_ece: a probability outside [0, 1]");
    const bool decided_safe = p >= 0.5;
    const double c = decided_safe ? p : 1.0 - p;
    const auto bin = static_cast<std::size_t>(std::clamp(static_cast<int>(c * bins), 0, bins - 1));
    confidence[bin] += c;
    correct[bin] += (decided_safe == (safe[i] != 0)) ? 1.0 : 0.0;
    count[bin] += 1;
  }
  double error = 0;
  for (std::size_t b = 0; b < count_bins; ++b) {
    if (count[b] > 0) error += std::abs(correct[b] - confidence[b]) / static_cast<double>(p_safe.size());
  }
  return error;
}

Eigen::MatrixXd softmax_rows(const Eigen::MatrixXd& logits, double temperature) {
  Eigen::MatrixXd out = logits / temperature;
  for (Eigen::Index i = 0; i < out.rows(); ++i) {
    out.row(i).array() -= out.row(i).maxCoeff();
    out.row(i) = out.row(i).array().exp().matrix();
    out.row(i) /= out.row(i).sum();
  }
  return out;
}

namespace {

double mean_nll(const Eigen::MatrixXd& logits, std::span<const int> labels, double temperature) {
  double total = 0;
  for (Eigen::Index i = 0; i < logits.rows(); ++i) {
    const Eigen::VectorXd z = logits.row(i).transpose() / temperature;
    const double top = z.maxCoeff();
    const double log_sum = top + std::log((z.array() - top).exp().sum());
    total += log_sum - z(labels[static_cast<std::size_t>(i)]);
  }
  return total / static_cast<double>(logits.rows());
}

}  // namespace

double minimize_temperature(const std::function<double(double)>& objective) {
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  double low = std::log(0.01), high = std::log(100.0);
  double a = high - golden * (high - low), b = low + golden * (high - low);
  double fa = objective(std::exp(a)), fb = objective(std::exp(b));
  while (high - low > 1e-10) {
    if (fa < fb) {
      high = b;
      b = a;
      fb = fa;
      a = high - golden * (high - low);
      fa = objective(std::exp(a));
    } else {
      low = a;
      a = b;
      fa = fb;
      b = low + golden * (high - low);
      fb = objective(std::exp(b));
    }
  }
  return std::exp((low + high) / 2.0);
}

double fit_softmax_temperature(const Eigen::MatrixXd& logits, std::span<const int> labels) {
  if (logits.rows() == 0 || static_cast<std::size_t>(logits.rows()) != labels.size()) {
    throw InternalError("fit_softmax_temperature: sizes differ or are zero");
  }
  for (const int label : labels) {
    if (label < 0 || label >= logits.cols()) throw InternalError("fit_softmax_temperature: label out of range");
  }
  return minimize_temperature([&](double t) { return mean_nll(logits, labels, t); });
}

}  // namespace claimrag::selective
