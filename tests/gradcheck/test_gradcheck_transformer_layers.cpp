// Finite-difference checks of the position-wise layers: linear, layer norm, feed-forward,
// embedding. Three random points each, from one fixed seed.

#include <gtest/gtest.h>

#include "claimrag/nn/embedding.hpp"
#include "claimrag/nn/feed_forward.hpp"
#include "claimrag/nn/layer_norm.hpp"
#include "claimrag/nn/linear.hpp"
#include "test_gradcheck_transformer_check.hpp"

namespace claimrag::gradcheck {
namespace {

constexpr int kLayerPoints = 3;

TEST(GradcheckTransformer, Linear) {
  std::mt19937_64 rng(42);
  for (int point = 0; point < kLayerPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto layer = nn::make_linear(registry, "linear", 4, 3, rng);
    layer.bias->value = random_matrix(1, 3, rng);
    Matrix<double> x = random_matrix(5, 4, rng);
    const Matrix<double> upstream = random_matrix(5, 3, rng);
    Matrix<double> y;
    nn::linear_forward(x, layer, y);
    Matrix<double> dx = Matrix<double>::Zero(5, 4);
    nn::linear_backward(x, layer, upstream, &dx);
    auto loss = [&] {
      Matrix<double> out;
      nn::linear_forward(x, layer, out);
      return weighted_sum(out, upstream);
    };
    expect_gradient(x, dx, loss, "linear dx");
    expect_gradient(layer.weight->value, layer.weight->grad, loss, "linear dweight");
    expect_gradient(layer.bias->value, layer.bias->grad, loss, "linear dbias");
  }
}

TEST(GradcheckTransformer, LayerNorm) {
  std::mt19937_64 rng(42);
  for (int point = 0; point < kLayerPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto layer = nn::make_layer_norm(registry, "norm", 6);
    layer.gain->value = random_matrix(1, 6, rng);
    layer.shift->value = random_matrix(1, 6, rng);
    Matrix<double> x = random_matrix(4, 6, rng, 3.0);
    const Matrix<double> upstream = random_matrix(4, 6, rng);
    Matrix<double> y;
    nn::LayerNormCache<double> cache;
    nn::layer_norm_forward(x, layer, y, cache);
    Matrix<double> dx = Matrix<double>::Zero(4, 6);
    nn::layer_norm_backward(cache, layer, upstream, dx);
    auto loss = [&] {
      Matrix<double> out;
      nn::LayerNormCache<double> scratch;
      nn::layer_norm_forward(x, layer, out, scratch);
      return weighted_sum(out, upstream);
    };
    expect_gradient(x, dx, loss, "layer norm dx");
    expect_gradient(layer.gain->value, layer.gain->grad, loss, "layer norm dgain");
    expect_gradient(layer.shift->value, layer.shift->grad, loss, "layer norm dshift");
  }
}

TEST(GradcheckTransformer, FeedForward) {
  std::mt19937_64 rng(42);
  for (int point = 0; point < kLayerPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto block = nn::make_feed_forward(registry, "ffn", 5, 7, rng);
    block.expand.bias->value = random_matrix(1, 7, rng);
    block.contract.bias->value = random_matrix(1, 5, rng);
    Matrix<double> x = random_matrix(4, 5, rng);
    const Matrix<double> upstream = random_matrix(4, 5, rng);
    Matrix<double> y;
    nn::FeedForwardCache<double> cache;
    nn::feed_forward_forward(x, block, y, cache);
    Matrix<double> dx = Matrix<double>::Zero(4, 5);
    nn::feed_forward_backward(cache, block, upstream, dx);
    auto loss = [&] {
      Matrix<double> out;
      nn::FeedForwardCache<double> scratch;
      nn::feed_forward_forward(x, block, out, scratch);
      return weighted_sum(out, upstream);
    };
    expect_gradient(x, dx, loss, "feed-forward dx");
    for (std::size_t i = 0; i < registry.size(); ++i) {
      expect_gradient(registry[i].value, registry[i].grad, loss, "feed-forward " + registry[i].name);
    }
  }
}

TEST(GradcheckTransformer, GeluDerivative) {
  std::mt19937_64 rng(42);
  const Matrix<double> z = random_matrix(1, 20, rng, 2.0);
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const double numeric = (nn::gelu(z(i) + kStep) - nn::gelu(z(i) - kStep)) / (2 * kStep);
    const double analytic = nn::gelu_derivative(z(i));
    EXPECT_LT(std::abs(analytic - numeric) / std::max(std::abs(analytic) + std::abs(numeric), kFloor),
              kRelativeBound)
        << z(i);
  }
}

TEST(GradcheckTransformer, EmbeddingWithRepeatedIds) {
  std::mt19937_64 rng(42);
  for (int point = 0; point < kLayerPoints; ++point) {
    nn::ParameterRegistry<double> registry;
    const auto layer = nn::make_embedding(registry, "embedding", 6, 3, 1.0, rng);
    const std::vector<std::int32_t> ids = {2, 0, 2, 5, 2, 1};
    const Matrix<double> upstream = random_matrix(6, 3, rng);
    nn::embedding_backward(ids, layer, upstream);
    auto loss = [&] {
      Matrix<double> out = Matrix<double>::Zero(6, 3);
      nn::embedding_forward(ids, layer, out);
      return weighted_sum(out, upstream);
    };
    expect_gradient(layer.table->value, layer.table->grad, loss, "embedding dtable");
    // Rows 3 and 4 are never looked up: their gradient is exactly zero.
    EXPECT_TRUE(layer.table->grad.row(3).isZero(0.0));
    EXPECT_TRUE(layer.table->grad.row(4).isZero(0.0));
  }
}

}  // namespace
}  // namespace claimrag::gradcheck
