// Stacked sequences: the encoder runs each linear layer once over the tokens of several sequences,
// and each sequence's hidden states and outputs are the bytes it has alone, for any stack, batch
// size and thread count. Sequences come from the real configurations' own tokenizers.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/pretrained/pretrained_model.hpp"
#include "pretrained_fixture.hpp"
#include "random_matrices.hpp"

namespace claimrag::pretrained {
namespace {

using testing::same_bytes;

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Lengths of verification pairs: short premises (the common case) and a few longer ones.
const std::vector<std::size_t> kLengths = {12, 40, 7, 33, 64, 18, 3, 90, 25, 40, 51, 9, 128, 30, 14, 77};

class Stacking : public ::testing::TestWithParam<std::string> {
 protected:
  [[nodiscard]] bool has_tokenizer_files() const {
    return std::filesystem::exists(testing::expected_fixture(GetParam()).tokenizer_folder);
  }
};

TEST_P(Stacking, EachSequenceOfAStackHasTheHiddenStatesItHasAlone) {
  if (!has_tokenizer_files()) GTEST_SKIP() << GetParam() << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  const auto model = load_pretrained_model(testing::fixture_checkpoint(GetParam()));
  const auto sequences = testing::sequences_of_lengths(GetParam(), kLengths);
  std::vector<const TokenSequence*> stack;
  for (const auto& sequence : sequences) stack.push_back(&sequence);
  const auto stacked = model.encoder().encode_stack(stack, true);
  // The same sequences stacked in reverse order, and in pairs.
  const std::vector<const TokenSequence*> reversed(stack.rbegin(), stack.rend());
  const auto stacked_reversed = model.encoder().encode_stack(reversed, false);
  ASSERT_EQ(stacked.size(), sequences.size());
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const auto alone = model.encoder().encode(sequences[i], true);
    ASSERT_EQ(alone.layers.size(), stacked[i].layers.size());
    for (std::size_t l = 0; l < alone.layers.size(); ++l) {
      EXPECT_TRUE(same_bytes(alone.layers[l], stacked[i].layers[l])) << kLengths[i] << " tokens, layer " << l;
    }
    EXPECT_TRUE(same_bytes(alone.last, stacked[i].last)) << kLengths[i] << " tokens";
    EXPECT_TRUE(same_bytes(alone.last, stacked_reversed[sequences.size() - 1 - i].last)) << kLengths[i] << " tokens, reversed";
    const auto pair = model.encoder().encode_stack({&sequences[i], &sequences[(i + 1) % sequences.size()]}, false);
    EXPECT_TRUE(same_bytes(alone.last, pair.front().last)) << kLengths[i] << " tokens, in a pair";
  }
}

// Predictions at `precision` for every batch size and thread count, against batches of one on one thread.
void expect_same_bytes_for_any_batch_and_threads(const std::string& fixture, Precision precision) {
  const auto model = load_pretrained_model(testing::fixture_checkpoint(fixture), precision);
  const auto sequences = testing::sequences_of_lengths(fixture, kLengths);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto reference = model.predict(sequences, RunOptions{1, false});
  for (const int thread_count : {1, 2, 3}) {
    omp_set_num_threads(thread_count);
    for (const std::size_t batch_size : {2U, 5U, 16U, 64U}) {
      const auto predictions = model.predict(sequences, RunOptions{batch_size, false});
      ASSERT_EQ(predictions.size(), reference.size());
      for (std::size_t i = 0; i < reference.size(); ++i) {
        EXPECT_TRUE(same_bytes(reference[i].values, predictions[i].values))
            << precision_name(precision) << ", " << kLengths[i] << " tokens, " << thread_count << " threads, batches of " << batch_size;
      }
    }
  }
  omp_set_num_threads(threads);
}

TEST_P(Stacking, PredictionsAreTheSameBytesForAnyBatchSizeAndThreadCount) {
  if (!has_tokenizer_files()) GTEST_SKIP() << GetParam() << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  expect_same_bytes_for_any_batch_and_threads(GetParam(), Precision::f32);
}

TEST_P(Stacking, Int8PredictionsAreTheSameBytesForAnyBatchSizeAndThreadCount) {
  if (!has_tokenizer_files()) GTEST_SKIP() << GetParam() << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  expect_same_bytes_for_any_batch_and_threads(GetParam(), Precision::int8);
}

// One of each family, with every flag of the real checkpoint's config.json (sizes shrunk).
INSTANTIATE_TEST_SUITE_P(RealConfiguration, Stacking,
                         ::testing::Values("real-bert-base-uncased", "real-roberta-large-mnli", "real-deberta-v3-base-nli",
                                           "real-all-minilm-l6-v2"),
                         testing::fixture_test_name);

}  // namespace
}  // namespace claimrag::pretrained
