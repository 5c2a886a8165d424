// The pretrained encoders' parts on hand-made cases: log-bucketed relative positions, sentence
// pooling, activations, config reading.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/activation.hpp"
#include "claimrag/pretrained/relative_position.hpp"
#include "claimrag/pretrained/sentence_pooling.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

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

// Every (i, j) of every length reads, through relative_rows, the row the direct formula gives, and
// the rows read are few: the position products multiply only against these.
void expect_rows_match_the_formula(std::int64_t max_tokens, std::int64_t buckets, std::int64_t max_position, std::int64_t span) {
  const auto positions = relative_positions(max_tokens, buckets, max_position);
  const std::int64_t centre = max_tokens - 1;
  const auto row = [&](std::int64_t position) { return std::clamp<std::int64_t>(position + span, 0, 2 * span - 1); };
  std::vector<std::int64_t> lengths;
  for (std::int64_t length = 1; length <= std::min<std::int64_t>(max_tokens, 40); ++length) lengths.push_back(length);
  for (const std::int64_t length : {127, 128, 129, 130, 200, 256, 257, 300, 511, 512}) {
    if (length <= max_tokens) lengths.push_back(length);
  }
  for (const std::int64_t length : lengths) {
    const auto keys = relative_rows(positions, centre, length, span, false);
    const auto queries = relative_rows(positions, centre, length, span, true);
    EXPECT_LE(keys.count, std::min(2 * length - 1, 2 * span)) << length;
    EXPECT_LE(queries.count, std::min(2 * length - 1, 2 * span)) << length;
    for (std::int64_t a = 0; a < length; ++a) {
      for (std::int64_t b = 0; b < length; ++b) {
        const auto d = static_cast<std::size_t>(a - b + length - 1);
        const std::int64_t position = positions[static_cast<std::size_t>(a - b + centre)];
        ASSERT_EQ(keys.first + keys.offset[d], row(position)) << length << " " << a << " " << b;
        ASSERT_EQ(queries.first + queries.offset[d], row(-position)) << length << " " << a << " " << b;
        ASSERT_GE(keys.offset[d], 0);
        ASSERT_LT(keys.offset[d], keys.count);
        ASSERT_GE(queries.offset[d], 0);
        ASSERT_LT(queries.offset[d], queries.count);
      }
    }
  }
}

TEST(RelativeRows, ReadTheFormulasRowsAndOnlyTheRangeTheyCover) {
  expect_rows_match_the_formula(512, 256, 512, 256);  // DeBERTa-v3: 256 log buckets
  expect_rows_match_the_formula(40, 8, 64, 8);        // small buckets: most distances bucketed
  expect_rows_match_the_formula(40, -1, 16, 16);      // no buckets, distances clamped at 16
}

TEST(RelativeRows, AShortSequenceReadsItsOwnDistancesOnly) {
  // 32 tokens of DeBERTa-v3 read 63 of the 512 rows: distances -31..31 at rows 225..287.
  const auto positions = relative_positions(512, 256, 512);
  const auto rows = relative_rows(positions, 511, 32, 256, false);
  EXPECT_EQ(rows.first, 256 - 31);
  EXPECT_EQ(rows.count, 63);
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

TEST(SentencePooling, APoolingPathOfAnotherTypeIsRefusedNamingTheFile) {
  const testing::TempFolder folder;
  const auto modules = folder.write("modules.json", R"([{"type": "sentence_transformers.models.Pooling", "path": 3}])");
  testing::expect_error<DataError>([&] { (void)read_sentence_pooling(folder.path()); },
                                   modules.string() + ": the Pooling module's \"path\" is not a string: 3");
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
