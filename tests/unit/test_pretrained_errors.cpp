// Bad checkpoints and bad inputs: each a clear error naming the file and what is wrong.

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "checkpoint_editing.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::pretrained {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::copy_checkpoint;
using testing::edit_safetensors;
using testing::error_of;
using testing::expect_contains;
using testing::load_error;

TEST(PretrainedErrors, FolderWithoutConfigOrWeights) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  fs::remove(folder / "model.safetensors");
  expect_contains(load_error(folder), "no model.safetensors, model.safetensors.index.json, pytorch_model.bin or pytorch_model.bin.index.json");
  fs::remove(folder / "config.json");
  expect_contains(load_error(folder), (folder / "config.json").string() + ": no config.json");
  expect_contains(load_error(temp.path() / "nowhere"), "not a checkpoint folder");
}

TEST(PretrainedErrors, UnknownModelTypeListsTheSupportedOnes) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  auto config = json::parse(io::read_file(folder / "config.json"));
  config["model_type"] = "gpt2";
  temp.write("bert-classifier/config.json", config.dump());
  const auto message = load_error(folder);
  expect_contains(message, "config.json: unknown model_type 'gpt2'");
  expect_contains(message, "bert, roberta, xlm-roberta, deberta-v2");
}

TEST(PretrainedErrors, NoHeadListsTheSupportedOnes) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  auto config = json::parse(io::read_file(folder / "config.json"));
  config["architectures"] = {"BertForMaskedLM"};
  temp.write("bert-classifier/config.json", config.dump());
  const auto message = load_error(folder);
  expect_contains(message, "no head claimrag runs: architectures [BertForMaskedLM]");
  expect_contains(message, "*ForSequenceClassification");
  expect_contains(message, "modules.json");
}

TEST(PretrainedErrors, MissingAndMisshapenTensorsAreNamed) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  const auto weights = folder / "model.safetensors";
  const std::string original = io::read_file(weights);
  edit_safetensors(weights, [](json& header, std::string&) {
    // Two tensors renamed out of the way (their bytes stay covered): both are named as missing.
    header["unused.a"] = header["classifier.weight"];
    header["unused.b"] = header["bert.encoder.layer.1.output.dense.bias"];
    header.erase("classifier.weight");
    header.erase("bert.encoder.layer.1.output.dense.bias");
  });
  const auto missing = load_error(folder);
  expect_contains(missing, "no tensor named 'bert.encoder.layer.1.output.dense.bias', 'classifier.weight'");
  expect_contains(missing, "2 tensor(s)");

  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string&) { header["classifier.weight"]["shape"] = {32, 3}; });
  expect_contains(load_error(folder), "tensor 'classifier.weight' has shape [32, 3], expected [3, 32]");
}

TEST(PretrainedErrors, UnsupportedDtypeAndNanWeights) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  const auto weights = folder / "model.safetensors";
  const std::string original = io::read_file(weights);
  // I64 over the same bytes: a valid layout, but not weights claimrag can take.
  edit_safetensors(weights, [](json& header, std::string&) {
    header["classifier.weight"]["dtype"] = "I64";
    header["classifier.weight"]["shape"] = {3, 16};
  });
  expect_contains(load_error(folder), "tensor 'classifier.weight': unsupported dtype I64 (supported: F32, F16, BF16)");

  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string&) { header["classifier.bias"]["dtype"] = "Q4"; });
  expect_contains(load_error(folder), "tensor 'classifier.bias': unknown dtype Q4");

  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string& data) {
    const auto begin = header["classifier.bias"]["data_offsets"][0].get<std::size_t>();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(data.data() + begin + sizeof(float), &nan, sizeof nan);
  });
  const auto message = load_error(folder);
  expect_contains(message, weights.string());
  expect_contains(message, "'classifier.bias'");
  expect_contains(message, "nan");
}

TEST(PretrainedErrors, ShardIndexNamingAMissingShard) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-embedding-sharded");
  fs::remove(folder / "model-00002-of-00002.safetensors");
  expect_contains(load_error(folder), "model.safetensors.index.json: lists shard 'model-00002-of-00002.safetensors'");
}

TEST(PretrainedErrors, HeadUsedForTheWrongPurpose) {
  const auto classifier = load_pretrained_model(testing::fixture_checkpoint("bert-classifier"));
  const auto message =
      error_of<UsageError>([&] { classifier.require_head(HeadKind::embedding, "a dense encoder needs embeddings"); });
  expect_contains(message, "a dense encoder needs embeddings, but this checkpoint has a classification head");
  const auto embedding = load_pretrained_model(testing::fixture_checkpoint("bert-embedding-sharded"));
  expect_contains(error_of<UsageError>([&] { embedding.require_head(HeadKind::classification, "verification needs labels"); }),
                  "has a embedding head");
  EXPECT_NO_THROW(embedding.require_head(HeadKind::embedding, "a dense encoder needs embeddings"));
}

TEST(PretrainedErrors, SequencesOverThePositionsOrOutsideTheVocabulary) {
  const auto model = load_pretrained_model(testing::fixture_checkpoint("roberta-classifier-bf16"));
  // max_position_embeddings 66, padding_idx 1: positions 2..65 leave room for 64 tokens.
  EXPECT_EQ(model.config().max_tokens(), 64);
  TokenSequence too_long{std::vector<std::int32_t>(65, 5), {}};
  expect_contains(error_of<DataError>([&] { (void)model.predict({too_long}, RunOptions{}); }),
                  "sequence 1: 65 tokens, more than the 64 the model's positions allow");
  TokenSequence fits{std::vector<std::int32_t>(64, 5), {}};
  EXPECT_NO_THROW((void)model.predict({fits}, RunOptions{}));
  TokenSequence unknown{{0, 100000, 2}, {}};
  expect_contains(error_of<DataError>([&] { (void)model.predict({fits, unknown}, RunOptions{}); }),
                  "sequence 2: token id 100000 outside the vocabulary");
}

}  // namespace
}  // namespace claimrag::pretrained
