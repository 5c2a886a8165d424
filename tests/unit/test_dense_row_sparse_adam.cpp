#include <gtest/gtest.h>

#include <random>

#include "claimrag/dense/row_sparse_adam.hpp"
#include "claimrag/error.hpp"
#include "claimrag/nn/adam.hpp"

using claimrag::nn::Matrix;
using claimrag::nn::ParameterRegistry;

namespace {

// Two registries with the same values; plain Adam updates one, row-sparse Adam the other.
// Rows are 16 floats so that every SIMD width Eigen may use covers whole rows (see the header).
void fill(ParameterRegistry<float>& registry, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto& table = registry.add("table", 40, 16);
  auto& bias = registry.add("bias", 1, 16);
  claimrag::nn::init_normal(table.value, 1.0, rng);
  claimrag::nn::init_normal(bias.value, 1.0, rng);
}

}  // namespace

TEST(RowSparseAdam, MatchesDenseAdamBitForBitOnSparseGradients) {
  ParameterRegistry<float> dense_registry, sparse_registry;
  fill(dense_registry, 3);
  fill(sparse_registry, 3);
  claimrag::nn::AdamOptions options;
  options.learning_rate = 2e-3;
  claimrag::nn::Adam<float> dense(dense_registry, options);
  claimrag::dense::RowSparseAdam<float> sparse(sparse_registry, options);
  sparse.mark_all_rows(1);

  std::mt19937_64 rng(9);
  std::uniform_int_distribution<std::int32_t> row(0, 29);  // rows 30..39 never get a gradient
  std::normal_distribution<float> normal(0.0F, 1.0F);
  for (int step = 0; step < 25; ++step) {
    std::vector<std::int32_t> rows;
    for (int i = 0; i < 4; ++i) rows.push_back(row(rng));
    Matrix<float> gradient = Matrix<float>::Zero(40, 16);
    for (const auto r : rows) {
      for (Eigen::Index c = 0; c < 16; ++c) gradient(r, c) += normal(rng);
    }
    Matrix<float> bias_gradient(1, 16);
    for (Eigen::Index c = 0; c < 16; ++c) bias_gradient(0, c) = normal(rng);
    dense_registry[0].grad = gradient;
    dense_registry[1].grad = bias_gradient;
    sparse_registry[0].grad += gradient;  // zero_grad() below must have cleared the last step's rows
    sparse_registry[1].grad = bias_gradient;
    sparse.mark_rows(0, rows);
    dense.step();
    sparse.step();
    sparse.zero_grad();
    ASSERT_EQ(sparse_registry[0].value, dense_registry[0].value) << "step " << step;
    ASSERT_EQ(sparse_registry[1].value, dense_registry[1].value) << "step " << step;
  }
  const auto& active = sparse.active_rows(0);
  EXPECT_TRUE(std::is_sorted(active.begin(), active.end()));
  EXPECT_LE(active.size(), 30u);
  EXPECT_EQ(sparse_registry[0].grad, Matrix<float>::Zero(40, 16));
}

TEST(RowSparseAdam, MatchesDenseAdamOnTheThreadedPathToo) {
  // 8192 × 128 entries: enough for the row loop to be spread over the threads.
  ParameterRegistry<float> dense_registry, sparse_registry;
  for (auto* registry : {&dense_registry, &sparse_registry}) {
    auto& table = registry->add("table", 8192, 128);
    std::mt19937_64 rng(12);
    claimrag::nn::init_normal(table.value, 1.0, rng);
  }
  claimrag::nn::Adam<float> dense(dense_registry, {});
  claimrag::dense::RowSparseAdam<float> sparse(sparse_registry, {});
  sparse.mark_all_rows(0);
  std::mt19937_64 rng(13);
  std::normal_distribution<float> normal(0.0F, 1.0F);
  for (int step = 0; step < 3; ++step) {
    for (Eigen::Index i = 0; i < 8192 * 128; ++i) {
      const float g = i % 3 == 0 ? 0.0F : normal(rng);
      dense_registry[0].grad.data()[i] = g;
      sparse_registry[0].grad.data()[i] = g;
    }
    dense.step();
    sparse.step();
  }
  EXPECT_EQ(sparse_registry[0].value, dense_registry[0].value);
}

TEST(RowSparseAdam, RefusesWeightDecayAndRowsOutOfRange) {
  ParameterRegistry<float> registry;
  registry.add("t", 3, 2);
  claimrag::nn::AdamOptions decayed;
  decayed.weight_decay = 0.1;
  EXPECT_THROW(claimrag::dense::RowSparseAdam<float>(registry, decayed), claimrag::UsageError);
  claimrag::dense::RowSparseAdam<float> adam(registry, {});
  const std::vector<std::int32_t> bad{3};
  EXPECT_THROW(adam.mark_rows(0, bad), claimrag::InternalError);
}
