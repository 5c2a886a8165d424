#include "claimrag/gate/combined_signal.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/gate/calibration.hpp"

namespace claimrag::gate {

double CombinedSignal::logit(const std::vector<double>& row) const {
  Eigen::VectorXd x(static_cast<Eigen::Index>(row.size()));
  for (std::size_t f = 0; f < row.size(); ++f) x(static_cast<Eigen::Index>(f)) = (row[f] - means[f]) / deviations[f];
  return model.decision_function(x);
}

double CombinedSignal::probability(const std::vector<double>& row) const { return sigmoid(logit(row) / temperature); }

CombinedSignal fit_combined_signal(const std::vector<std::string>& features, const std::vector<std::vector<double>>& rows,
                                   const std::vector<int>& grounded, const CombinedSignalOptions& options, std::mt19937_64& rng) {
  if (rows.size() != grounded.size() || rows.empty()) throw InternalError("fit_combined_signal: rows and labels differ");
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  const auto held_out = static_cast<std::size_t>(std::round(options.held_out_fraction * static_cast<double>(rows.size())));
  if (held_out == 0 || held_out >= rows.size()) throw UsageError("combined signal: the held-out part is empty or everything");
  const std::vector<std::size_t> fit_part(order.begin() + static_cast<long>(held_out), order.end());
  const std::vector<std::size_t> calibration_part(order.begin(), order.begin() + static_cast<long>(held_out));

  CombinedSignal signal;
  signal.features = features;
  const std::size_t width = features.size();
  signal.means.assign(width, 0.0);
  signal.deviations.assign(width, 0.0);
  const double count = static_cast<double>(fit_part.size());
  for (const std::size_t i : fit_part) {
    for (std::size_t f = 0; f < width; ++f) signal.means[f] += rows[i][f];
  }
  for (double& mean : signal.means) mean /= count;
  for (const std::size_t i : fit_part) {
    for (std::size_t f = 0; f < width; ++f) signal.deviations[f] += std::pow(rows[i][f] - signal.means[f], 2);
  }
  for (std::size_t f = 0; f < width; ++f) {
    const double deviation = std::sqrt(signal.deviations[f] / count);
    // A constant feature (up to rounding) keeps a deviation of 1, so it standardises to ~0
    // instead of amplifying rounding noise into ±1.
    signal.deviations[f] = deviation > 1e-9 * std::max(1.0, std::abs(signal.means[f])) ? deviation : 1.0;
  }

  rerank::RowMatrixXd x(static_cast<Eigen::Index>(fit_part.size()), static_cast<Eigen::Index>(width));
  std::vector<int> labels;
  for (std::size_t r = 0; r < fit_part.size(); ++r) {
    for (std::size_t f = 0; f < width; ++f) {
      x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(f)) = (rows[fit_part[r]][f] - signal.means[f]) / signal.deviations[f];
    }
    labels.push_back(grounded[fit_part[r]]);
  }
  rerank::LogisticRegressionOptions regression;
  regression.C = options.C;
  regression.class_weight = rerank::ClassWeight::none;
  signal.model = rerank::fit_logistic_regression(x, labels, regression);

  std::vector<double> logits, uncalibrated, calibrated;
  std::vector<int> held_out_labels;
  for (const std::size_t i : calibration_part) {
    logits.push_back(signal.logit(rows[i]));
    uncalibrated.push_back(sigmoid(logits.back()));
    held_out_labels.push_back(grounded[i]);
  }
  signal.temperature = fit_temperature(logits, held_out_labels);
  for (const double z : logits) calibrated.push_back(sigmoid(z / signal.temperature));
  signal.held_out_ece_before = expected_calibration_error(uncalibrated, held_out_labels);
  signal.held_out_ece_after = expected_calibration_error(calibrated, held_out_labels);
  return signal;
}

}  // namespace claimrag::gate
