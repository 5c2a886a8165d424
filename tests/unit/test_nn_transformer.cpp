// The transformer layers' forward passes on hand-worked values, and masked attention against a
// plain-loop oracle.

#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/nn/attention.hpp"
#include "claimrag/nn/embedding.hpp"
#include "claimrag/nn/feed_forward.hpp"
#include "claimrag/nn/layer_norm.hpp"
#include "claimrag/nn/linear.hpp"

using namespace claimrag::nn;

TEST(NnTransformer, LinearByHand) {
  ParameterRegistry<double> registry;
  std::mt19937_64 rng(42);
  const auto layer = make_linear(registry, "linear", 2, 3, rng);
  EXPECT_EQ(registry.find("linear.weight").value.rows(), 2);
  EXPECT_TRUE(registry.find("linear.bias").value.isZero(0.0));
  layer.weight->value << 1, 0, 2, 0, 1, -1;
  layer.bias->value << 0.5, 0, 1;
  Matrix<double> x(2, 2);
  x << 1, 2, -1, 0;
  Matrix<double> y;
  linear_forward(x, layer, y);
  Matrix<double> expected(2, 3);
  expected << 1.5, 2, 1, -0.5, 0, -1;
  EXPECT_EQ(y, expected);
}

TEST(NnTransformer, GlorotBound) {
  ParameterRegistry<double> registry;
  std::mt19937_64 rng(42);
  const auto layer = make_linear(registry, "linear", 10, 14, rng);  // bound sqrt(6/24) = 0.5
  EXPECT_LE(layer.weight->value.cwiseAbs().maxCoeff(), 0.5);
  EXPECT_GT(layer.weight->value.cwiseAbs().maxCoeff(), 0.4);
}

TEST(NnTransformer, LayerNormByHand) {
  ParameterRegistry<double> registry;
  const auto layer = make_layer_norm(registry, "norm", 4, 0.0);
  Matrix<double> x(2, 4);
  x << 1, 2, 3, 4, 5, 5, 5, 7;
  Matrix<double> y;
  LayerNormCache<double> cache;
  layer_norm_forward(x, layer, y, cache);
  // Row 1: mean 2.5, variance 1.25. Row 2: mean 5.5, variance 0.75.
  const double a = 1.5 / std::sqrt(1.25), b = 0.5 / std::sqrt(1.25), c = 0.5 / std::sqrt(0.75);
  Matrix<double> expected(2, 4);
  expected << -a, -b, b, a, -c, -c, -c, 3 * c;
  EXPECT_LT((y - expected).cwiseAbs().maxCoeff(), 1e-14);
  layer.gain->value << 2, 2, 2, 2;
  layer.shift->value << 1, 1, 1, 1;
  layer_norm_forward(x, layer, y, cache);
  EXPECT_LT((y.array() - (2 * expected.array() + 1)).abs().maxCoeff(), 1e-14);
}

TEST(NnTransformer, GeluValues) {
  EXPECT_EQ(gelu(0.0), 0.0);
  EXPECT_NEAR(gelu(1.0), 0.8413447460685429, 1e-15);   // Φ(1)
  EXPECT_NEAR(gelu(-1.0), -0.15865525393145707, 1e-15);
  EXPECT_NEAR(gelu_derivative(0.0), 0.5, 1e-15);
  EXPECT_NEAR(gelu_derivative(1.0), 0.8413447460685429 + 0.24197072451914337, 1e-15);  // Φ(1) + φ(1)
}

TEST(NnTransformer, FeedForwardByHand) {
  ParameterRegistry<double> registry;
  std::mt19937_64 rng(42);
  const auto block = make_feed_forward(registry, "ffn", 1, 2, rng);
  block.expand.weight->value << 1, -1;
  block.contract.weight->value << 2, 3;
  block.contract.bias->value << 0.25;
  Matrix<double> x(1, 1);
  x << 1;
  Matrix<double> y;
  FeedForwardCache<double> cache;
  feed_forward_forward(x, block, y, cache);
  EXPECT_NEAR(y(0, 0), 2 * gelu(1.0) + 3 * gelu(-1.0) + 0.25, 1e-15);
}

TEST(NnTransformer, EmbeddingAddsRows) {
  ParameterRegistry<double> registry;
  std::mt19937_64 rng(42);
  const auto layer = make_embedding(registry, "embedding", 3, 2, 1.0, rng);
  layer.table->value << 1, 2, 3, 4, 5, 6;
  Matrix<double> out = Matrix<double>::Ones(3, 2);
  embedding_forward({2, 0, 2}, layer, out);
  Matrix<double> expected(3, 2);
  expected << 6, 7, 2, 3, 6, 7;
  EXPECT_EQ(out, expected);
  EXPECT_THROW(embedding_forward({3, 0, 0}, layer, out), claimrag::InternalError);
}

namespace {

/// Attention by plain loops over valid keys: the oracle of attention_forward.
Matrix<double> naive_attention(const Matrix<double>& x, const std::vector<Eigen::Index>& lengths,
                               const AttentionShape& shape, const MultiHeadAttention<double>& layer) {
  const Eigen::Index d = x.cols(), dh = d / layer.heads;
  auto project = [](const Matrix<double>& in, const Linear<double>& linear) {
    Matrix<double> out(in.rows(), linear.weight->value.cols());
    for (Eigen::Index r = 0; r < in.rows(); ++r) {
      for (Eigen::Index c = 0; c < out.cols(); ++c) {
        double sum = linear.bias->value(0, c);
        for (Eigen::Index k = 0; k < in.cols(); ++k) sum += in(r, k) * linear.weight->value(k, c);
        out(r, c) = sum;
      }
    }
    return out;
  };
  const Matrix<double> q = project(x, layer.query), k = project(x, layer.key), v = project(x, layer.value);
  Matrix<double> context = Matrix<double>::Zero(shape.batch * shape.query_len, d);
  for (Eigen::Index b = 0; b < shape.batch; ++b) {
    const Eigen::Index length = lengths[static_cast<std::size_t>(b)];
    for (Eigen::Index i = 0; i < shape.query_len; ++i) {
      for (Eigen::Index h = 0; h < layer.heads; ++h) {
        std::vector<double> scores(static_cast<std::size_t>(length));
        double total = 0;
        for (Eigen::Index j = 0; j < length; ++j) {
          double dot = 0;
          for (Eigen::Index c = h * dh; c < (h + 1) * dh; ++c) dot += q(b * shape.seq_len + i, c) * k(b * shape.seq_len + j, c);
          scores[static_cast<std::size_t>(j)] = std::exp(dot / std::sqrt(static_cast<double>(dh)));
          total += scores[static_cast<std::size_t>(j)];
        }
        for (Eigen::Index j = 0; j < length; ++j) {
          for (Eigen::Index c = h * dh; c < (h + 1) * dh; ++c) {
            context(b * shape.query_len + i, c) += scores[static_cast<std::size_t>(j)] / total * v(b * shape.seq_len + j, c);
          }
        }
      }
    }
  }
  return project(context, layer.output);
}

}  // namespace

TEST(NnTransformer, AttentionMatchesThePlainLoopOracle) {
  std::mt19937_64 rng(42);
  ParameterRegistry<double> registry;
  const auto layer = make_attention(registry, "attention", 6, 3, rng);
  for (std::size_t i = 0; i < registry.size(); ++i) init_normal(registry[i].value, 0.7, rng);
  Matrix<double> x(4 * 5, 6);
  init_normal(x, 1.0, rng);
  const std::vector<Eigen::Index> lengths = {5, 2, 1, 4};
  for (const Eigen::Index query_len : {5, 3, 1}) {
    const AttentionShape shape{4, 5, query_len};
    Matrix<double> y;
    AttentionCache<double> cache;
    attention_forward(x, lengths, shape, layer, y, cache);
    ASSERT_EQ(y.rows(), 4 * query_len);
    EXPECT_LT((y - naive_attention(x, lengths, shape, layer)).cwiseAbs().maxCoeff(), 1e-12) << query_len;
  }
}

TEST(NnTransformer, AttentionRejectsBadShapes) {
  std::mt19937_64 rng(42);
  ParameterRegistry<double> registry;
  EXPECT_THROW(make_attention(registry, "bad", 6, 4, rng), claimrag::InternalError);
  const auto layer = make_attention(registry, "attention", 4, 2, rng);
  const Matrix<double> x = Matrix<double>::Zero(6, 4);
  Matrix<double> y;
  AttentionCache<double> cache;
  EXPECT_THROW(attention_forward(x, {3, 0}, {2, 3, 1}, layer, y, cache), claimrag::InternalError);
  EXPECT_THROW(attention_forward(x, {3, 4}, {2, 3, 1}, layer, y, cache), claimrag::InternalError);
  EXPECT_THROW(attention_forward(x, {3, 3}, {2, 3, 4}, layer, y, cache), claimrag::InternalError);
  EXPECT_THROW(attention_forward(x, {3, 3}, {3, 2, 1}, layer, y, cache), claimrag::InternalError);
}
