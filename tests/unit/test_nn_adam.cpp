#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/nn/adam.hpp"

using claimrag::nn::Adam;
using claimrag::nn::AdamOptions;
using claimrag::nn::ParameterRegistry;

// torch.optim.Adam, step t: g ← grad + wd·θ; m ← β1 m + (1−β1) g; v ← β2 v + (1−β2) g²;
// θ ← θ − lr/(1−β1^t) · m / (√v / √(1−β2^t) + ε).

TEST(Adam, FirstStepMovesEachEntryByAboutTheLearningRateAgainstItsGradientSign) {
  ParameterRegistry<double> registry;
  auto& w = registry.add("w", 1, 3);
  w.value << 0.5, -1.0, 2.0;
  w.grad << 0.2, -3.0, 0.0;
  AdamOptions options;
  options.learning_rate = 0.1;
  Adam<double> adam(registry, options);
  adam.step();
  // t = 1: m = 0.1 g, v = 0.001 g², m/(1−0.9) = g, √v/√(1−0.999) = |g|:
  // θ − 0.1 · g / (|g| + 1e-8); a zero gradient leaves the entry where it was.
  EXPECT_NEAR(w.value(0, 0), 0.5 - 0.1 * 0.2 / (0.2 + 1e-8), 1e-15);
  EXPECT_NEAR(w.value(0, 1), -1.0 + 0.1 * 3.0 / (3.0 + 1e-8), 1e-15);
  EXPECT_EQ(w.value(0, 2), 2.0);
  EXPECT_EQ(adam.steps_taken(), 1);
}

TEST(Adam, SecondStepUsesTheDecayedMomentsAndBiasCorrections) {
  ParameterRegistry<double> registry;
  auto& w = registry.add("w", 1, 1);
  w.value << 1.0;
  AdamOptions options;
  options.learning_rate = 0.01;
  options.beta1 = 0.8;
  options.beta2 = 0.9;
  options.epsilon = 1e-3;
  options.weight_decay = 0.5;
  Adam<double> adam(registry, options);
  w.grad << 2.0;
  adam.step();
  // t = 1: g = 2 + 0.5·1 = 2.5; m = 0.5; v = 0.625; θ = 1 − 0.01/0.2 · 0.5 / (√0.625/√0.1 + 1e-3)
  //      = 1 − 0.05 · 0.5 / 2.501 = 0.990004...
  const double theta1 = 1.0 - 0.05 * 0.5 / (std::sqrt(0.625) / std::sqrt(0.1) + 1e-3);
  EXPECT_NEAR(w.value(0, 0), theta1, 1e-15);
  EXPECT_NEAR(theta1, 0.99000399840064, 1e-13);
  w.grad << -1.0;
  adam.step();
  // t = 2: g = −1 + 0.5 θ1; m = 0.8·0.5 + 0.2 g; v = 0.9·0.625 + 0.1 g²;
  // θ2 = θ1 − 0.01/(1−0.64) · m / (√v/√(1−0.81) + 1e-3).
  const double g2 = -1.0 + 0.5 * theta1;
  const double m2 = 0.8 * 0.5 + 0.2 * g2;
  const double v2 = 0.9 * 0.625 + 0.1 * g2 * g2;
  const double theta2 = theta1 - 0.01 / 0.36 * m2 / (std::sqrt(v2) / std::sqrt(0.19) + 1e-3);
  EXPECT_NEAR(w.value(0, 0), theta2, 1e-15);
}
