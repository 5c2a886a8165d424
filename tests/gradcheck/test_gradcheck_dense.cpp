// Finite-difference check of the whole dense objective: the in-batch contrastive loss's gradient
// with respect to the embedding table(s), through mean pooling, L2 normalisation, the scaled
// similarity matrix, the false-negative mask and the softmax cross-entropy.

#include <gtest/gtest.h>

#include "relative_error.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "claimrag/dense/contrastive_loss.hpp"

using claimrag::dense::DenseOptions;
using claimrag::dense::DualEncoder;
using claimrag::dense::TrainingPair;
using claimrag::nn::Matrix;

using claimrag::gradcheck::relative_error;

namespace {

constexpr double kDenseStep = 1e-5;
constexpr double kDenseMaxRelativeError = 1e-6;

// A central difference carries about ε·|loss| / kDenseStep ≈ 1e-10 of rounding noise (at τ = 0.05 the
// loss reaches ~10), so the few entries far below 1e-4 (the softmax nearly saturated) are
// measured against that floor instead of their own size; every larger entry keeps the full
// 1e-6 relative bound.
constexpr double kNoiseFloor = 1e-4;

std::vector<std::vector<std::int32_t>> random_texts(int count, int max_length, std::int32_t vocabulary,
                                                    std::mt19937_64& rng) {
  std::uniform_int_distribution<int> length(1, max_length);
  std::uniform_int_distribution<std::int32_t> token(0, vocabulary - 1);
  std::vector<std::vector<std::int32_t>> texts(static_cast<std::size_t>(count));
  for (auto& text : texts) {
    text.resize(static_cast<std::size_t>(length(rng)));
    for (auto& id : text) id = token(rng);
  }
  return texts;
}

void check_dual_encoder_at(std::uint64_t seed, bool shared_towers, double temperature) {
  constexpr std::int32_t kVocabulary = 10;
  DenseOptions options;
  options.dimension = 5;
  options.max_query_tokens = 4;     // some queries get truncated
  options.max_document_tokens = 6;  // some documents too
  options.shared_towers = shared_towers;
  options.temperature = temperature;
  DualEncoder<double> model(kVocabulary, options);
  std::mt19937_64 rng(seed);
  model.initialise(rng);
  const auto queries = random_texts(4, 6, kVocabulary, rng);
  const auto documents = random_texts(5, 9, kVocabulary, rng);
  // Document 2 appears in two pairs (deduplicated column); query 0 has two positives in the
  // batch (each masks the other's column).
  const std::vector<TrainingPair> pairs{{0, 1}, {1, 2}, {2, 2}, {0, 3}, {3, 4}, {1, 0}};
  std::vector<TrainingPair> sorted = pairs;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<std::size_t> batch{0, 1, 2, 3, 4};  // pair {1, 0} stays out: column 0 is absent
  const auto laid_out = claimrag::dense::make_contrastive_batch(model, queries, documents, pairs, batch, sorted);
  ASSERT_EQ(laid_out.documents.size(), 4u);
  ASSERT_EQ(laid_out.masked.size(), 2u);

  model.parameters().zero_grad();
  claimrag::dense::contrastive_forward_backward(model, laid_out);
  // The evaluations below add into the gradients again: keep the analytic ones first.
  std::vector<Matrix<double>> analytic_gradients;
  for (std::size_t p = 0; p < model.parameters().size(); ++p) analytic_gradients.push_back(model.parameters()[p].grad);
  for (std::size_t p = 0; p < model.parameters().size(); ++p) {
    auto& parameter = model.parameters()[p];
    const Matrix<double>& analytic = analytic_gradients[p];
    for (Eigen::Index i = 0; i < parameter.value.size(); ++i) {
      const double saved = parameter.value.data()[i];
      parameter.value.data()[i] = saved + kDenseStep;
      const double plus = claimrag::dense::contrastive_forward_backward(model, laid_out);
      parameter.value.data()[i] = saved - kDenseStep;
      const double minus = claimrag::dense::contrastive_forward_backward(model, laid_out);
      parameter.value.data()[i] = saved;
      const double numeric = (plus - minus) / (2 * kDenseStep);
      EXPECT_LT(relative_error(analytic.data()[i], numeric, kNoiseFloor), kDenseMaxRelativeError)
          << parameter.name << " seed " << seed << " entry " << i << ": analytic " << analytic.data()[i]
          << ", numeric " << numeric;
    }
  }
}

}  // namespace

TEST(GradcheckDenseDualEncoder, SharedTableAtRandomPoints) {
  for (std::uint64_t seed : {31, 32, 33, 34}) check_dual_encoder_at(seed, true, 0.5);
}

TEST(GradcheckDenseDualEncoder, SeparateTablesAtRandomPoints) {
  for (std::uint64_t seed : {41, 42, 43}) check_dual_encoder_at(seed, false, 0.5);
}

TEST(GradcheckDenseDualEncoder, PaperTemperatureAtRandomPoints) {
  // τ = 0.05 as trained; gradients are larger but the check must hold just the same.
  for (std::uint64_t seed : {51, 52, 53}) check_dual_encoder_at(seed, true, 0.05);
}
