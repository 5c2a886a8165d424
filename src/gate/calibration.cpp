#include "claimrag/gate/calibration.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/selective/calibration.hpp"

namespace claimrag::gate {

double sigmoid(double z) {
  if (z >= 0) return 1.0 / (1.0 + std::exp(-z));
  const double e = std::exp(z);
  return e / (1.0 + e);
}

namespace {

// Mean negative log-likelihood of labels under σ(z/T), with log σ computed stably.
double negative_log_likelihood(const std::vector<double>& logits, const std::vector<int>& labels, double temperature) {
  double total = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    const double z = logits[i] / temperature;
    // -log σ(z) = log(1 + e^{-z}); -log(1 - σ(z)) = log(1 + e^{z}).
    const double x = labels[i] == 1 ? -z : z;
    total += x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
  }
  return total / static_cast<double>(logits.size());
}

}  // namespace

double fit_temperature(const std::vector<double>& logits, const std::vector<int>& labels) {
  if (logits.empty() || logits.size() != labels.size()) throw InternalError("fit_temperature: sizes differ or are zero");
  // The NLL is unimodal in log T for a fixed set of logits, so golden-section search suffices.
  return selective::minimize_temperature([&](double t) { return negative_log_likelihood(logits, labels, t); });
}

double expected_calibration_error(const std::vector<double>& probabilities, const std::vector<int>& labels, int bins) {
  if (probabilities.empty() || probabilities.size() != labels.size() || bins < 1) {
    throw InternalError("expected_calibration_error: sizes differ or are zero");
  }
  std::vector<double> confidence(static_cast<std::size_t>(bins), 0.0), accuracy(static_cast<std::size_t>(bins), 0.0);
  std::vector<double> count(static_cast<std::size_t>(bins), 0.0);
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    const auto bin = static_cast<std::size_t>(std::clamp(static_cast<int>(probabilities[i] * bins), 0, bins - 1));
    confidence[bin] += probabilities[i];
    accuracy[bin] += labels[i];
    count[bin] += 1;
  }
  double error = 0;
  for (std::size_t b = 0; b < count.size(); ++b) {
    if (count[b] > 0) error += std::abs(accuracy[b] - confidence[b]) / static_cast<double>(probabilities.size());
  }
  return error;
}

}  // namespace claimrag::gate
