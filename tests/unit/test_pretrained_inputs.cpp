// What the model makes of the ids its tokenizer gives: DeBERTa without a segment table ignores the
// segment ids of a pair (as the reference does), DeBERTa-v2 with one uses them, and configuration
// options that would make the forward pass silently wrong are refused by name.

#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/predict.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::pretrained {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool same_bytes(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// The first pair case of a fixture's expected outputs.
testing::ExpectedCase first_pair(const std::string& name) {
  for (const auto& c : testing::expected_cases(name)) {
    if (c.text_pair && !c.text_pair->empty()) return c;
  }
  throw std::runtime_error("no pair case in " + name);
}

TEST(PretrainedSegments, DebertaV3PairThroughPredictGivesTheReferenceLogits) {
  // Every DeBERTa-v3 config has type_vocab_size 0 and its tokenizer gives segment id 1 to the
  // second text: the pair must run, not be refused.
  const auto fixture = testing::expected_fixture("deberta-v3-classifier");
  const auto expected = first_pair("deberta-v3-classifier");
  ASSERT_NE(std::find(expected.sequence.token_type_ids.begin(), expected.sequence.token_type_ids.end(), 1),
            expected.sequence.token_type_ids.end());
  const testing::TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", json{{"id", "p"}, {"text", expected.text}, {"text_pair", *expected.text_pair}}.dump() + "\n");
  const auto model = load_pretrained_model(testing::fixture_checkpoint("deberta-v3-classifier"));
  const auto tokenizer = tokenizer::load_tokenizer(fixture.tokenizer_folder, "deberta-v2");
  PredictSummary summary;
  const auto line = json::parse(predict_lines(model, *tokenizer, read_pair_inputs(pairs), 0, 1, pairs.string(), summary));
  EXPECT_EQ(line["input_ids"].get<std::vector<std::int32_t>>(), expected.sequence.input_ids);
  const auto logits = line["logits"].get<std::vector<float>>();
  ASSERT_EQ(logits.size(), expected.values.size());
  for (std::size_t i = 0; i < logits.size(); ++i) EXPECT_NEAR(logits[i], expected.values[i], 1e-4F);
}

TEST(PretrainedSegments, IgnoredWithoutASegmentTableUsedWithOne) {
  const auto run = [](const PretrainedModel& model, std::vector<std::int32_t> ids, std::vector<std::int32_t> types) {
    return model.predict({TokenSequence{std::move(ids), std::move(types)}}, RunOptions{}).front().values;
  };
  for (const std::string name : {"deberta-v3-classifier", "deberta-v2-classifier"}) {
    const auto model = load_pretrained_model(testing::fixture_checkpoint(name));
    const auto c = first_pair(name);
    const auto& ids = c.sequence.input_ids;
    const auto from_tokenizer = run(model, ids, c.sequence.token_type_ids);
    const auto zeros = run(model, ids, std::vector<std::int32_t>(ids.size(), 0));
    if (model.config().type_vocab_size == 0) {
      EXPECT_TRUE(same_bytes(from_tokenizer, zeros)) << name;
      // Any value is ignored, as the reference never looks them up.
      EXPECT_TRUE(same_bytes(run(model, ids, std::vector<std::int32_t>(ids.size(), 7)), zeros)) << name;
    } else {
      EXPECT_FALSE(same_bytes(from_tokenizer, zeros)) << name;
      EXPECT_THROW((void)run(model, ids, std::vector<std::int32_t>(ids.size(), 2)), DataError) << name;
    }
  }
}

TEST(PretrainedPositions, RobertaPadTokensAreNotCounted) {
  // "<pad>" in the text is the pad token: the tokens after it keep the positions they would have
  // without it, so the output differs from the same ids numbered consecutively.
  const auto model = load_pretrained_model(testing::fixture_checkpoint("roberta-classifier-bf16"));
  const auto cases = testing::expected_cases("roberta-classifier-bf16");
  const auto with_pad = std::find_if(cases.begin(), cases.end(), [](const auto& c) { return c.text.find("<pad>") != std::string::npos; });
  ASSERT_NE(with_pad, cases.end());
  const std::int32_t pad = static_cast<std::int32_t>(model.config().pad_token_id);
  ASSERT_NE(std::find(with_pad->sequence.input_ids.begin(), with_pad->sequence.input_ids.end(), pad), with_pad->sequence.input_ids.end());
  const auto values = model.predict({with_pad->sequence}, RunOptions{}).front().values;
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_NEAR(values[i], with_pad->values[i], 1e-4F);
}

// config.json of the BERT classifier fixture with one edit, in a folder of its own.
fs::path edited_checkpoint(const testing::TempFolder& temp, const std::function<void(json&)>& edit) {
  const auto folder = temp.path() / "bert-classifier";
  fs::copy(testing::fixture_checkpoint("bert-classifier"), folder, fs::copy_options::recursive);
  auto config = json::parse(io::read_file(folder / "config.json"));
  edit(config);
  temp.write("bert-classifier/config.json", config.dump());
  return folder;
}

std::string config_load_error(const fs::path& folder) {
  try {
    (void)load_pretrained_model(folder);
  } catch (const DataError& error) {
    return error.what();
  }
  return "no error";
}

TEST(PretrainedConfigOptions, PositionEmbeddingTypeOtherThanAbsoluteIsRefusedByName) {
  for (const std::string type : {"relative_key", "relative_key_query"}) {
    const testing::TempFolder temp;
    const auto folder = edited_checkpoint(temp, [&](json& config) { config["position_embedding_type"] = type; });
    const auto message = config_load_error(folder);
    EXPECT_NE(message.find((folder / "config.json").string()), std::string::npos) << message;
    EXPECT_NE(message.find("position_embedding_type \"" + type + "\" is not supported"), std::string::npos) << message;
  }
  const testing::TempFolder temp;
  EXPECT_NO_THROW((void)load_pretrained_model(edited_checkpoint(temp, [](json& config) { config["position_embedding_type"] = "absolute"; })));
}

TEST(PretrainedConfigOptions, DecoderAndPrunedHeadsAreRefusedByName) {
  {
    const testing::TempFolder temp;
    const auto message = config_load_error(edited_checkpoint(temp, [](json& config) { config["is_decoder"] = true; }));
    EXPECT_NE(message.find("config.json: is_decoder is true"), std::string::npos) << message;
  }
  {
    const testing::TempFolder temp;
    const auto message = config_load_error(edited_checkpoint(temp, [](json& config) { config["pruned_heads"] = {{"0", {1}}}; }));
    EXPECT_NE(message.find("config.json: pruned_heads is not empty"), std::string::npos) << message;
  }
  const testing::TempFolder temp;
  EXPECT_NO_THROW((void)load_pretrained_model(edited_checkpoint(temp, [](json& config) {
    config["is_decoder"] = false;
    config["pruned_heads"] = json::object();
  })));
}

}  // namespace
}  // namespace claimrag::pretrained
