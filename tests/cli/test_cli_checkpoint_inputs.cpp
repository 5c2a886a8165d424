// `claimrag predict` on inputs real checkpoints meet: a DeBERTa-v3 folder (segment
// ids 1 on the second text, type_vocab_size 0) runs text pairs; a configuration the forward pass
// does not implement stops with exit code 3, the file and the value named, nothing written.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;
using nlohmann::json;

const fs::path kFixtures = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained";

// A model folder as users have it: the DeBERTa-v3 fixture's config and weights with the tiny
// SentencePiece tokenizer's files.
fs::path deberta_v3_folder(const TempFolder& temp) {
  const auto folder = temp.path() / "deberta-v3";
  fs::copy(kFixtures / "models/deberta-v3-classifier", folder, fs::copy_options::recursive);
  for (const std::string file : {"spm.model", "tokenizer_config.json"}) {
    fs::copy_file(kFixtures / "tokenizers/deberta-v3-spm" / file, folder / file);
  }
  return folder;
}

TEST(CliCheckpointInputs, DebertaV3PairsGetTheReferenceLogits) {
  const TempFolder temp;
  const auto expected = json::parse(slurp(kFixtures / "expected/deberta-v3-classifier.json"));
  std::string lines;
  std::vector<json> pairs;
  for (const auto& c : expected["cases"]) {
    if (c["text_pair"].is_null() || c["max_length"] != 0) continue;
    pairs.push_back(c);
    lines += json{{"id", std::to_string(pairs.size())}, {"text", c["text"]}, {"text_pair", c["text_pair"]}}.dump() + "\n";
  }
  ASSERT_GE(pairs.size(), 2U);
  const auto in = temp.write("pairs.jsonl", lines);
  const auto out = temp.path() / "out.jsonl";
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + deberta_v3_folder(temp).string() + " --pairs " + in.string() +
                                        " --out " + out.string(),
                                    temp.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto predictions = json_lines(out);
  ASSERT_EQ(predictions.size(), pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(predictions[i]["input_ids"], pairs[i]["input_ids"]);
    const auto logits = predictions[i]["logits"].get<std::vector<double>>();
    const auto reference = pairs[i]["values"].get<std::vector<double>>();
    ASSERT_EQ(logits.size(), reference.size());
    for (std::size_t k = 0; k < logits.size(); ++k) EXPECT_NEAR(logits[k], reference[k], 1e-4) << "pair " << i;
  }
}

TEST(CliCheckpointInputs, RelativePositionEmbeddingsAreRefusedWithExitCode3) {
  const TempFolder temp;
  const auto folder = temp.path() / "bert";
  fs::copy(kFixtures / "models/bert-classifier", folder, fs::copy_options::recursive);
  auto config = json::parse(slurp(folder / "config.json"));
  config["position_embedding_type"] = "relative_key_query";
  temp.write("bert/config.json", config.dump());
  const auto in = temp.write("pairs.jsonl", "{\"id\": \"a\", \"text\": \"the cat\", \"text_pair\": \"a dog\"}\n");
  const auto out = temp.path() / "out.jsonl";
  const auto outcome =
      run_claimrag("--quiet predict --checkpoint " + folder.string() + " --pairs " + in.string() + " --out " + out.string(), temp.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find((folder / "config.json").string()), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("position_embedding_type \"relative_key_query\" is not supported"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
