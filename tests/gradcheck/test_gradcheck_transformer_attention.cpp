// Finite-difference checks of masked multi-head attention and of the encoder layer, on a batch
// whose sequences are padded (lengths 5, 3 and 1 of 5): the checks also assert that padded
// positions neither leak into valid outputs nor receive gradient from them.

#include <gtest/gtest.h>

#include "claimrag/nn/attention.hpp"
#include "claimrag/verifier/encoder_layer.hpp"
#include "test_gradcheck_transformer_check.hpp"

namespace claimrag::gradcheck {
namespace {

constexpr int kAttentionPoints = 3;
constexpr Eigen::Index kBatch = 3, kSeqLen = 5, kWidth = 6, kHeads = 2;
const std::vector<Eigen::Index> kLengths = {5, 3, 1};

/// Random upstream gradient for the output rows, zero on the rows of padded queries, so the
/// loss depends on valid positions only.
Matrix<double> valid_row_weights(Eigen::Index query_len, std::mt19937_64& rng) {
  Matrix<double> weights = random_matrix(kBatch * query_len, kWidth, rng);
  for (Eigen::Index b = 0; b < kBatch; ++b) {
    for (Eigen::Index i = kLengths[static_cast<std::size_t>(b)]; i < query_len; ++i) {
      weights.row(b * query_len + i).setZero();
    }
  }
  return weights;
}

void randomise_biases(nn::ParameterRegistry<double>& registry, std::mt19937_64& rng) {
  for (std::size_t i = 0; i < registry.size(); ++i) {
    if (registry[i].value.rows() == 1) nn::init_normal(registry[i].value, 0.5, rng);
  }
}

/// Rows of x that are padding in the batch layout.
std::vector<Eigen::Index> padded_rows() {
  std::vector<Eigen::Index> rows;
  for (Eigen::Index b = 0; b < kBatch; ++b) {
    for (Eigen::Index t = kLengths[static_cast<std::size_t>(b)]; t < kSeqLen; ++t) rows.push_back(b * kSeqLen + t);
  }
  return rows;
}

class GradcheckAttention : public ::testing::TestWithParam<Eigen::Index> {};

TEST_P(GradcheckAttention, MaskedMultiHeadAttention) {
  const Eigen::Index query_len = GetParam();
  const nn::AttentionShape shape{kBatch, kSeqLen, query_len};
  std::mt19937_64 rng(42);
  for (int point = 0; point < kAttentionPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto layer = nn::make_attention(registry, "attention", kWidth, kHeads, rng);
    randomise_biases(registry, rng);
    Matrix<double> x = random_matrix(kBatch * kSeqLen, kWidth, rng);
    const Matrix<double> upstream = valid_row_weights(query_len, rng);
    Matrix<double> y;
    nn::AttentionCache<double> cache;
    nn::attention_forward(x, kLengths, shape, layer, y, cache);
    Matrix<double> dx = Matrix<double>::Zero(x.rows(), x.cols());
    nn::attention_backward(cache, layer, upstream, dx);
    auto loss = [&] {
      Matrix<double> out;
      nn::AttentionCache<double> scratch;
      nn::attention_forward(x, kLengths, shape, layer, out, scratch);
      return weighted_sum(out, upstream);
    };
    expect_gradient(x, dx, loss, "attention dx");
    for (std::size_t i = 0; i < registry.size(); ++i) {
      expect_gradient(registry[i].value, registry[i].grad, loss, "attention " + registry[i].name);
    }
    for (const Eigen::Index row : padded_rows()) {
      EXPECT_TRUE(dx.row(row).isZero(0.0)) << "gradient leaked into padded row " << row;
    }
    // Overwriting the padded rows changes no valid output at all.
    Matrix<double> changed = x;
    for (const Eigen::Index row : padded_rows()) changed.row(row) = random_matrix(1, kWidth, rng, 10.0);
    Matrix<double> y_changed;
    nn::AttentionCache<double> scratch;
    nn::attention_forward(changed, kLengths, shape, layer, y_changed, scratch);
    for (Eigen::Index b = 0; b < kBatch; ++b) {
      for (Eigen::Index i = 0; i < std::min(query_len, kLengths[static_cast<std::size_t>(b)]); ++i) {
        EXPECT_EQ(y.row(b * query_len + i), y_changed.row(b * query_len + i)) << b << "," << i;
      }
    }
    // Padded keys get exactly zero attention weight.
    for (Eigen::Index b = 0; b < kBatch; ++b) {
      const Eigen::Index length = kLengths[static_cast<std::size_t>(b)];
      const auto weights = cache.weights.middleRows(b * kHeads * query_len, kHeads * query_len);
      EXPECT_TRUE(weights.rightCols(kSeqLen - length).isZero(0.0));
      for (Eigen::Index r = 0; r < weights.rows(); ++r) EXPECT_NEAR(weights.row(r).sum(), 1.0, 1e-12);
    }
  }
}

TEST_P(GradcheckAttention, EncoderLayer) {
  const Eigen::Index query_len = GetParam();
  const nn::AttentionShape shape{kBatch, kSeqLen, query_len};
  std::mt19937_64 rng(42);
  for (int point = 0; point < kAttentionPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto layer = verifier::make_encoder_layer(registry, "layer", kWidth, kHeads, 8, rng);
    randomise_biases(registry, rng);
    Matrix<double> x = random_matrix(kBatch * kSeqLen, kWidth, rng);
    const Matrix<double> upstream = valid_row_weights(query_len, rng);
    Matrix<double> y;
    verifier::EncoderLayerCache<double> cache;
    verifier::encoder_layer_forward(x, kLengths, shape, layer, y, cache);
    Matrix<double> dx = Matrix<double>::Zero(x.rows(), x.cols());
    verifier::encoder_layer_backward(cache, layer, upstream, dx);
    auto loss = [&] {
      Matrix<double> out;
      verifier::EncoderLayerCache<double> scratch;
      verifier::encoder_layer_forward(x, kLengths, shape, layer, out, scratch);
      return weighted_sum(out, upstream);
    };
    expect_gradient(x, dx, loss, "encoder layer dx");
    for (std::size_t i = 0; i < registry.size(); ++i) {
      expect_gradient(registry[i].value, registry[i].grad, loss, "encoder layer " + registry[i].name);
    }
    for (const Eigen::Index row : padded_rows()) {
      EXPECT_TRUE(dx.row(row).isZero(0.0)) << "gradient leaked into padded row " << row;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(QueryLengths, GradcheckAttention, ::testing::Values(kSeqLen, 2, 1));

}  // namespace
}  // namespace claimrag::gradcheck
