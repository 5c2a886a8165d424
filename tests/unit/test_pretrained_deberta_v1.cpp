// DeBERTa v1 (model_type "deberta"): its tokenizer's ids and its forward pass against the
// reference, on tiny random checkpoints with the published deberta-large-mnli configuration shrunk
// and one turning v1's other switches (scripts/fixtures/deberta_v1_fixtures.py).

#include <gtest/gtest.h>

#include <algorithm>

#include "claimrag/pretrained/pretrained_model.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::pretrained {
namespace {

using testing::max_abs_difference;

// The reference's float32 outputs, rounded to 7 digits, against claimrag's.
constexpr float kDebertaV1Tolerance = 1e-4F;

class DebertaV1 : public ::testing::TestWithParam<std::string> {};

TEST_P(DebertaV1, TokensAndOutputsMatchTheReference) {
  const std::string name = GetParam();
  const auto folder = testing::fixture_checkpoint(name);
  const auto model = load_pretrained_model(folder);
  EXPECT_EQ(model.config().model_type, "deberta");
  const auto tokenizer = tokenizer::load_tokenizer(folder, model.config().model_type);
  const auto expected = nlohmann::json::parse(io::read_file(testing::pretrained_fixtures() / "expected" / (name + ".json")));
  std::vector<TokenSequence> sequences;
  for (const auto& item : expected.at("cases")) {
    const auto pair = item.at("text_pair");
    const auto text_pair = pair.is_null() ? std::nullopt : std::optional<std::string>(pair.get<std::string>());
    const auto encoding = tokenizer->encode(item.at("text").get<std::string>(), text_pair, 0);
    EXPECT_EQ(encoding.input_ids, item.at("input_ids").get<std::vector<std::int32_t>>()) << item.at("text");
    EXPECT_EQ(encoding.token_type_ids, item.at("token_type_ids").get<std::vector<std::int32_t>>()) << item.at("text");
    sequences.push_back({encoding.input_ids, encoding.token_type_ids});
  }
  const auto cases = testing::expected_cases(name);
  const auto predictions = model.predict(sequences, RunOptions{2, true});
  std::size_t layers_checked = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    ASSERT_EQ(predictions[i].values.size(), cases[i].values.size());
    EXPECT_LE(max_abs_difference(predictions[i].values.data(), cases[i].values), kDebertaV1Tolerance) << name << " case " << i;
    for (std::size_t l = 0; l < cases[i].hidden_states.size(); ++l) {
      EXPECT_LE(max_abs_difference(predictions[i].hidden_states[l].data(), cases[i].hidden_states[l]), kDebertaV1Tolerance)
          << name << " case " << i << " layer " << l;
      ++layers_checked;
    }
  }
  EXPECT_EQ(layers_checked, 6U);
}

INSTANTIATE_TEST_SUITE_P(PretrainedDebertaV1, DebertaV1, ::testing::Values("deberta-v1-classifier", "deberta-v1-clamped"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace claimrag::pretrained
