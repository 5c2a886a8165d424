#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "claimrag/error.hpp"
#include "claimrag/gate/calibration.hpp"
#include "claimrag/gate/combined_signal.hpp"

using namespace claimrag;

TEST(Calibration, EceByHand) {
  // Bins of width 0.1: {0.05, 0.05} -> confidence 0.05, accuracy 0.5; {0.95} -> 0.95 vs 1.
  const std::vector<double> p{0.05, 0.05, 0.95, 1.0};
  const std::vector<int> y{0, 1, 1, 1};
  // Last bin holds 0.95 and 1.0: confidence 0.975, accuracy 1.
  EXPECT_NEAR(gate::expected_calibration_error(p, y), (2.0 / 4.0) * 0.45 + (2.0 / 4.0) * 0.025, 1e-15);
  EXPECT_EQ(gate::expected_calibration_error({0.5, 0.5}, {0, 1}), 0.0);
  EXPECT_THROW(gate::expected_calibration_error({}, {}), InternalError);
}

TEST(Calibration, TemperatureRecoversAKnownScale) {
  // Labels drawn from σ(z / 2.5): the fitted temperature should be near 2.5 and be a minimum.
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal(0.0, 4.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> logits;
  std::vector<int> labels;
  for (int i = 0; i < 20000; ++i) {
    logits.push_back(normal(rng));
    labels.push_back(uniform(rng) < gate::sigmoid(logits.back() / 2.5) ? 1 : 0);
  }
  const double temperature = gate::fit_temperature(logits, labels);
  EXPECT_NEAR(temperature, 2.5, 0.15);
  // The derivative of the NLL in T vanishes at the optimum: check by central differences.
  auto nll = [&](double t) {
    double total = 0;
    for (std::size_t i = 0; i < logits.size(); ++i) {
      const double p = gate::sigmoid(logits[i] / t);
      total -= labels[i] ? std::log(p) : std::log(1 - p);
    }
    return total / static_cast<double>(logits.size());
  };
  EXPECT_LT(std::abs(nll(temperature * 1.0001) - nll(temperature * 0.9999)) / (temperature * 0.0002), 1e-6);
  EXPECT_GE(nll(temperature * 1.1), nll(temperature));
  EXPECT_GE(nll(temperature * 0.9), nll(temperature));
}

TEST(CombinedSignal, LearnsWhichSignalPredictsGroundingAndIsDeterministic) {
  std::mt19937_64 data_rng(7);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<std::vector<double>> rows;
  std::vector<int> grounded;
  for (int i = 0; i < 800; ++i) {
    const double useful = normal(data_rng), noise = normal(data_rng);
    rows.push_back({10 + 3 * useful, noise, 5.0});  // a constant third column must not break it
    grounded.push_back(uniform(data_rng) < gate::sigmoid(2 * useful) ? 1 : 0);
  }
  std::mt19937_64 rng_a(42), rng_b(42);
  const auto a = gate::fit_combined_signal({"useful", "noise", "constant"}, rows, grounded, {}, rng_a);
  const auto b = gate::fit_combined_signal({"useful", "noise", "constant"}, rows, grounded, {}, rng_b);
  EXPECT_GT(a.model.weights(0), 1.0);
  EXPECT_LT(std::abs(a.model.weights(1)), 0.3);
  EXPECT_LT(std::abs(a.model.weights(2)), 1e-9);
  EXPECT_EQ(a.temperature, b.temperature);
  EXPECT_EQ(a.probability(rows[3]), b.probability(rows[3]));
  EXPECT_GT(a.probability({16, 0, 5}), 0.9);
  EXPECT_LT(a.probability({4, 0, 5}), 0.1);
  EXPECT_LE(a.held_out_ece_after, 0.1);
}
