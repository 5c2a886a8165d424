// Long sequences through DeBERTa's relative attention: beyond half of DeBERTa-v3's 256 position
// buckets (distances of 128 tokens and more are log-bucketed), and beyond a clamped
// max_relative_positions, a sequence's outputs are the same bytes alone on one thread as in a
// batch of other lengths on two, in any order: the relative-position products and the gathers
// that read them depend on the sequence's own length only.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

void expect_same_bytes_alone_and_batched(const std::string& fixture_name, const std::vector<std::size_t>& lengths) {
  const auto checkpoint = testing::fixture_checkpoint(fixture_name);
  const auto fixture = testing::expected_fixture(fixture_name);
  if (!std::filesystem::exists(fixture.tokenizer_folder)) {
    GTEST_SKIP() << fixture_name << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  }
  const auto model = load_pretrained_model(checkpoint);
  const auto sequences = testing::sequences_of_lengths(fixture_name, lengths);
  const int threads = omp_get_max_threads();
  std::vector<Prediction> alone;
  omp_set_num_threads(1);
  for (const auto& sequence : sequences) alone.push_back(model.predict({sequence}, RunOptions{1, false}).front());
  omp_set_num_threads(2);
  std::vector<TokenSequence> reversed(sequences.rbegin(), sequences.rend());
  const auto batched = model.predict(reversed, RunOptions{3, false});
  omp_set_num_threads(threads);
  ASSERT_EQ(batched.size(), sequences.size());
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const auto& one = alone[i].values;
    const auto& other = batched[sequences.size() - 1 - i].values;
    ASSERT_EQ(one.size(), other.size());
    EXPECT_EQ(std::memcmp(one.data(), other.data(), one.size() * sizeof(float)), 0) << lengths[i] << " tokens";
  }
}

TEST(PretrainedLongSequences, LogBucketedDistancesGiveTheSameBytesAloneAndBatched) {
  // position_buckets 256 over 512 positions: 129 tokens and more reach the log buckets.
  expect_same_bytes_alone_and_batched("real-deberta-v3-base-nli", {512, 20, 300, 129, 128, 200});
}

TEST(PretrainedLongSequences, RelativeOnlyDebertaReadsPastItsAbsolutePositionCount) {
  // DeBERTa-v3 has no absolute positions (position_biased_input false): like the reference, it
  // reads sequences longer than max_position_embeddings (MiniCheck's DeBERTa-v3 reads 2,048).
  EXPECT_EQ(read_model_config(testing::fixture_checkpoint("real-deberta-v3-base-nli")).max_tokens(), kRelativeOnlyMaxTokens);
  EXPECT_EQ(read_model_config(testing::fixture_checkpoint("deberta-v2-classifier")).max_tokens(), 64);  // absolute positions too
  expect_same_bytes_alone_and_batched("real-deberta-v3-base-nli", {1500, 20, 700, 513});
}

TEST(PretrainedLongSequences, ClampedDistancesGiveTheSameBytesAloneAndBatched) {
  // max_relative_positions 16, c2p|p2c with separate position projections: most pairs are clamped.
  expect_same_bytes_alone_and_batched("deberta-v2-classifier", {40, 5, 33, 17});
}

}  // namespace
}  // namespace claimrag::pretrained
