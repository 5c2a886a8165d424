// Parity of the pretrained encoders with the reference: random checkpoints in the reference layout
// (F32, F16, BF16, sharded), made-up ones and real configurations shrunk, whose expected outputs
// were computed in PyTorch from the reference library's definitions by
// scripts/fixtures/checkpoint_fixtures.py. Every case is a text or text pair: claimrag's tokenizer
// of the fixture's tokenizer folder must give the reference tokenizer's ids and segment ids, and
// the model run on claimrag's ids must give the reference outputs.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>

#include "claimrag/pretrained/pretrained_model.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

constexpr float kParityTolerance = 1e-4F;
using testing::max_abs_difference;

bool is_real_configuration(const std::string& name) { return name.rfind("real-", 0) == 0; }

// Each case tokenized by claimrag's tokenizer of the fixture's folder, every id checked against the
// reference tokenizer's.
std::vector<TokenSequence> tokenize_cases(const testing::ExpectedFixture& fixture) {
  const auto tokenizer = tokenizer::load_tokenizer(fixture.tokenizer_folder, fixture.model_type);
  std::vector<TokenSequence> sequences;
  for (const auto& c : fixture.cases) {
    const auto pair = c.text_pair ? std::optional<std::string_view>(*c.text_pair) : std::nullopt;
    auto encoding = tokenizer->encode(c.text, pair, c.max_length);
    const std::string label = "\"" + c.text + "\"" + (c.text_pair ? " / \"" + *c.text_pair + "\"" : "");
    EXPECT_EQ(encoding.input_ids, c.sequence.input_ids) << label;
    EXPECT_EQ(encoding.token_type_ids, c.sequence.token_type_ids) << label;
    EXPECT_EQ(encoding.truncated_tokens, c.truncated_tokens) << label;
    sequences.push_back({std::move(encoding.input_ids), std::move(encoding.token_type_ids)});
  }
  return sequences;
}

// The fixture, or a skip when its real tokenizer files (../shared beside the repository) are absent.
std::optional<testing::ExpectedFixture> load_fixture(const std::string& name) {
  auto fixture = testing::expected_fixture(name);
  if (!std::filesystem::exists(fixture.tokenizer_folder)) {
    EXPECT_TRUE(is_real_configuration(name)) << name << ": its tokenizer folder " << fixture.tokenizer_folder << " is missing";
    return std::nullopt;
  }
  return fixture;
}

class Parity : public ::testing::TestWithParam<std::string> {};

TEST_P(Parity, IdsOutputsAndEveryLayerMatchTheReference) {
  const std::string name = GetParam();
  const auto fixture = load_fixture(name);
  if (!fixture) GTEST_SKIP() << name << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  const auto model = load_pretrained_model(testing::fixture_checkpoint(name));
  const auto& cases = fixture->cases;
  ASSERT_GE(cases.size(), 6U);
  const auto sequences = tokenize_cases(*fixture);
  const auto predictions = model.predict(sequences, RunOptions{3, true});
  ASSERT_EQ(predictions.size(), cases.size());
  float worst_values = 0.0F;
  float worst_states = 0.0F;
  std::size_t layers_checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ASSERT_EQ(predictions[i].values.size(), cases[i].values.size()) << "case " << i;
    const float values = max_abs_difference(predictions[i].values.data(), cases[i].values);
    EXPECT_LE(values, kParityTolerance) << name << " case " << i;
    worst_values = std::max(worst_values, values);
    if (cases[i].hidden_states.empty()) continue;
    ASSERT_EQ(predictions[i].hidden_states.size(), cases[i].hidden_states.size()) << "case " << i;
    for (std::size_t l = 0; l < cases[i].hidden_states.size(); ++l) {
      const auto& state = predictions[i].hidden_states[l];
      ASSERT_EQ(static_cast<std::size_t>(state.size()), cases[i].hidden_states[l].size()) << "case " << i << " layer " << l;
      const float states = max_abs_difference(state.data(), cases[i].hidden_states[l]);
      EXPECT_LE(states, kParityTolerance) << name << " case " << i << " layer " << l;
      worst_states = std::max(worst_states, states);
      ++layers_checked;
    }
  }
  EXPECT_GE(layers_checked, 3U);
  RecordProperty("max_abs_diff_outputs", std::to_string(worst_values));
  RecordProperty("max_abs_diff_hidden_states", std::to_string(worst_states));
  std::printf("[ parity ] %s: max |diff| outputs %.3g, hidden states %.3g\n", name.c_str(), worst_values, worst_states);
}

TEST_P(Parity, SameBytesForAnyThreadCountAndBatchSize) {
  const std::string name = GetParam();
  const auto fixture = load_fixture(name);
  if (!fixture) GTEST_SKIP() << name << ": the real tokenizer files are not there (../shared/data/hf-tokenizers beside the repository)";
  const auto model = load_pretrained_model(testing::fixture_checkpoint(name));
  const auto sequences = tokenize_cases(*fixture);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = model.predict(sequences, RunOptions{1, false});
  omp_set_num_threads(2);
  const auto two = model.predict(sequences, RunOptions{5, false});
  omp_set_num_threads(threads);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    ASSERT_EQ(one[i].values.size(), two[i].values.size());
    EXPECT_EQ(std::memcmp(one[i].values.data(), two[i].values.data(), one[i].values.size() * sizeof(float)), 0) << "case " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Pretrained, Parity,
                         ::testing::Values("bert-classifier", "bert-reranker-f16", "bert-embedding-sharded",
                                           "roberta-classifier-bf16", "deberta-v3-classifier", "deberta-v2-classifier"),
                         testing::fixture_test_name);

// Real configurations (every flag of the checkpoint's config.json, sizes shrunk) with the real
// tokenizer files from ../shared.
INSTANTIATE_TEST_SUITE_P(RealConfiguration, Parity,
                         ::testing::Values("real-deberta-v3-base-nli", "real-deberta-v3-prompt-injection",
                                           "real-roberta-large-mnli", "real-bert-base-uncased", "real-ms-marco-minilm-l6-v2",
                                           "real-all-minilm-l6-v2", "real-bge-base-en-v1.5", "real-minicheck-roberta-large",
                                           "real-minicheck-deberta-v3-large"),
                         testing::fixture_test_name);

TEST(PretrainedHeads, EachFixtureHasTheHeadItsFolderDescribes) {
  EXPECT_EQ(load_pretrained_model(testing::fixture_checkpoint("bert-classifier")).head(), HeadKind::classification);
  EXPECT_EQ(load_pretrained_model(testing::fixture_checkpoint("bert-reranker-f16")).head(), HeadKind::score);
  const auto embedding = load_pretrained_model(testing::fixture_checkpoint("bert-embedding-sharded"));
  EXPECT_EQ(embedding.head(), HeadKind::embedding);
  const auto deberta = load_pretrained_model(testing::fixture_checkpoint("deberta-v3-classifier"));
  // Labels come from id2label in id order, never from a fixed list.
  EXPECT_EQ(deberta.config().labels, (std::vector<std::string>{"entailment", "neutral", "contradiction"}));
  EXPECT_EQ(load_pretrained_model(testing::fixture_checkpoint("bert-classifier")).config().labels,
            (std::vector<std::string>{"contradiction", "entailment", "neutral"}));
}

TEST(PretrainedHeads, NormalisedEmbeddingsHaveUnitLength) {
  const auto model = load_pretrained_model(testing::fixture_checkpoint("bert-embedding-sharded"));
  const auto c = testing::expected_cases("bert-embedding-sharded")[2];
  const auto predictions = model.predict({c.sequence}, RunOptions{});
  ASSERT_EQ(predictions[0].values.size(), 32U);
  double squares = 0.0;
  for (const float v : predictions[0].values) squares += static_cast<double>(v) * v;
  EXPECT_NEAR(squares, 1.0, 1e-5);
}

}  // namespace
}  // namespace claimrag::pretrained
