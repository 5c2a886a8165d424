// Finite-difference checks of the weighted softmax cross-entropy and of the whole verifier
// (embeddings, encoder layer, head, loss) on a padded batch, for 2 and 3 classes.

#include <gtest/gtest.h>

#include "claimrag/nn/softmax_cross_entropy.hpp"
#include "claimrag/verifier/model.hpp"
#include "test_gradcheck_transformer_check.hpp"

namespace claimrag::gradcheck {
namespace {

constexpr int kVerifierPoints = 3;

TEST(GradcheckVerifier, WeightedSoftmaxCrossEntropy) {
  std::mt19937_64 rng(42);
  const std::vector<std::int32_t> targets = {0, 2, 1, 2};
  const std::vector<double> weights = {1.0, 0.5, 2.0, 0.0};
  for (int point = 0; point < kVerifierPoints; ++point) {
    Matrix<double> logits = random_matrix(4, 3, rng, 2.0);
    nn::SoftmaxCrossEntropyCache<double> cache;
    nn::softmax_cross_entropy_forward(logits, targets, weights, cache);
    Matrix<double> dlogits = Matrix<double>::Zero(4, 3);
    nn::softmax_cross_entropy_backward(cache, 1.0, dlogits);
    auto loss = [&] {
      nn::SoftmaxCrossEntropyCache<double> scratch;
      return nn::softmax_cross_entropy_forward(logits, targets, weights, scratch);
    };
    expect_gradient(logits, dlogits, loss, "cross-entropy dlogits");
    EXPECT_TRUE(dlogits.row(3).isZero(0.0)) << "a zero-weight row must get no gradient";
  }
}

/// Three pairs of lengths 8, 4 and 9 over a vocabulary of 12, padded to 9.
verifier::TokenBatch padded_batch() {
  const std::vector<verifier::EncodedPair> pairs = {
      verifier::encode_pair({4, 5}, {6, 7, 8}, 10),
      verifier::encode_pair({9}, {}, 10),
      verifier::encode_pair({10, 11, 4}, {1, 5, 6}, 10),
  };
  return verifier::make_batch(pairs, {0, 1, 2});
}

class GradcheckVerifierModel : public ::testing::TestWithParam<int> {};

TEST_P(GradcheckVerifierModel, EveryParameter) {
  verifier::VerifierOptions options;
  options.num_classes = GetParam();
  options.d_model = 8;
  options.heads = 2;
  options.d_ff = 12;
  options.max_length = 10;
  options.embedding_stddev = 0.5;
  const verifier::TokenBatch batch = padded_batch();
  ASSERT_EQ(batch.seq_len, 9);
  ASSERT_EQ(batch.lengths, (std::vector<Eigen::Index>{8, 4, 9}));
  const std::vector<std::int32_t> targets = {1, 0, options.num_classes - 1};
  const std::vector<double> weights = {1.0, 3.0, 0.5};
  std::mt19937_64 rng(42);
  for (int point = 0; point < kVerifierPoints; ++point) {
    verifier::VerifierModel<double> model(12, options, rng);
    auto& registry = model.parameters();
    for (std::size_t i = 0; i < registry.size(); ++i) {
      if (registry[i].value.rows() == 1) nn::init_normal(registry[i].value, 0.5, rng);
    }
    auto loss = [&] {
      Matrix<double> logits;
      verifier::VerifierCache<double> cache;
      nn::SoftmaxCrossEntropyCache<double> loss_cache;
      model.forward(batch, logits, cache);
      return nn::softmax_cross_entropy_forward(logits, targets, weights, loss_cache);
    };
    Matrix<double> logits;
    verifier::VerifierCache<double> cache;
    nn::SoftmaxCrossEntropyCache<double> loss_cache;
    model.forward(batch, logits, cache);
    ASSERT_EQ(logits.rows(), 3);
    ASSERT_EQ(logits.cols(), options.num_classes);
    nn::softmax_cross_entropy_forward(logits, targets, weights, loss_cache);
    Matrix<double> dlogits = Matrix<double>::Zero(3, options.num_classes);
    nn::softmax_cross_entropy_backward(loss_cache, 1.0, dlogits);
    registry.zero_grad();
    model.backward(batch, cache, dlogits);
    for (std::size_t i = 0; i < registry.size(); ++i) {
      expect_gradient(registry[i].value, registry[i].grad, loss, "verifier " + registry[i].name);
    }
    // [PAD] fills only padded positions: its embedding receives exactly nothing.
    EXPECT_TRUE(registry.find("token_embedding.table").grad.row(verifier::Vocabulary::pad_id).isZero(0.0));
    // Position 9 exists in the table but not in the batch.
    EXPECT_TRUE(registry.find("position_embedding.table").grad.row(9).isZero(0.0));
  }
}

INSTANTIATE_TEST_SUITE_P(Classes, GradcheckVerifierModel, ::testing::Values(2, 3));

}  // namespace
}  // namespace claimrag::gradcheck
