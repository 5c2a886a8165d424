// The pretrained encoders' parts on hand-made cases: log-bucketed relative positions, sentence
// pooling, activations, config reading.

#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/activation.hpp"
#include "claimrag/pretrained/relative_position.hpp"
#include "claimrag/pretrained/sentence_pooling.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

TEST(LogBucketPosition, KeepsNearDistancesAndLogSpacesFarOnes) {
  // bucket_size 8 (mid 4), max_position 64: |d| <= 4 stays; beyond, ceil(log(|d|/4) / log(63/4) * 3) + 4.
  EXPECT_EQ(log_bucket_position(0, 8, 64), 0);
  EXPECT_EQ(log_bucket_position(3, 8, 64), 3);
  EXPECT_EQ(log_bucket_position(-4, 8, 64), -4);
  // log(5/4) / log(15.75) * 3 = 0.243 -> 1 -> 5.
  EXPECT_EQ(log_bucket_position(5, 8, 64), 5);
  // log(10/4) / log(15.75) * 3 = 0.997 -> 1 -> 5, negated.
  EXPECT_EQ(log_bucket_position(-10, 8, 64), -5);
  // log(11/4) / log(15.75) * 3 = 1.102 -> 2 -> 6.
  EXPECT_EQ(log_bucket_position(11, 8, 64), 6);
  // log(63/4) / log(15.75) * 3 = 3 exactly -> 7.
  EXPECT_EQ(log_bucket_position(63, 8, 64), 7);
}

TEST(RelativePositions, ListsEveryDistanceFromTheMostNegative) {
  EXPECT_EQ(relative_positions(3, -1, -1), (std::vector<std::int64_t>{-2, -1, 0, 1, 2}));
  const auto bucketed = relative_positions(12, 8, 64);
  ASSERT_EQ(bucketed.size(), 23U);
  EXPECT_EQ(bucketed.front(), -6);  // distance -11
  EXPECT_EQ(bucketed[11], 0);
}

TEST(SentencePooling, MeanClsAndNormalisation) {
  nn::Matrix<float> states(2, 2);
  states << 3.0F, 0.0F, 1.0F, 4.0F;
  SentencePooling mean;
  mean.mean_tokens = true;
  const auto averaged = pool_tokens(mean, states);
  EXPECT_FLOAT_EQ(averaged(0, 0), 2.0F);
  EXPECT_FLOAT_EQ(averaged(0, 1), 2.0F);
  SentencePooling cls;
  cls.cls_token = true;
  cls.normalize = true;
  const auto first = pool_tokens(cls, states);  // (3, 0) / 3
  EXPECT_FLOAT_EQ(first(0, 0), 1.0F);
  EXPECT_FLOAT_EQ(first(0, 1), 0.0F);
  SentencePooling both;
  both.cls_token = true;
  both.max_tokens = true;
  const auto joined = pool_tokens(both, states);  // cls then max: (3, 0, 3, 4)
  ASSERT_EQ(joined.cols(), 4);
  EXPECT_FLOAT_EQ(joined(0, 3), 4.0F);
}

TEST(Activations, ExactAndTanhGelu) {
  nn::Matrix<float> values(1, 3);
  values << -1.0F, 0.0F, 1.0F;
  auto exact = values;
  apply_activation(Activation::gelu, exact);
  // 1 * Φ(1) = 0.841345; -1 * Φ(-1) = -0.158655.
  EXPECT_NEAR(exact(0, 2), 0.841345F, 1e-6F);
  EXPECT_NEAR(exact(0, 0), -0.158655F, 1e-6F);
  auto approximate = values;
  apply_activation(Activation::gelu_tanh, approximate);
  // 0.5 (1 + tanh(0.797885 * 1.044715)) = 0.841192.
  EXPECT_NEAR(approximate(0, 2), 0.841192F, 1e-6F);
  EXPECT_THROW(parse_activation("mish", "config.json", "hidden_act"), DataError);
}

}  // namespace
}  // namespace claimrag::pretrained
