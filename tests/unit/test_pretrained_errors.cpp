// Bad checkpoints and bad inputs: each a clear error naming the file and what is wrong.

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::pretrained {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A copy of a fixture checkpoint, to break one thing in.
fs::path copy_checkpoint(const testing::TempFolder& temp, const std::string& name) {
  const auto target = temp.path() / name;
  fs::copy(testing::fixture_checkpoint(name), target, fs::copy_options::recursive);
  return target;
}

// Rewrites `file`'s safetensors header (and, if asked, its data) in place.
void edit_safetensors(const fs::path& file, const std::function<void(json&, std::string&)>& edit) {
  const std::string bytes = io::read_file(file);
  std::uint64_t length = 0;
  std::memcpy(&length, bytes.data(), sizeof length);
  json header = json::parse(bytes.substr(8, length));
  std::string data = bytes.substr(8 + length);
  edit(header, data);
  const std::string text = header.dump();
  const std::uint64_t new_length = text.size();
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(&new_length), sizeof new_length);
  out << text << data;
}

// The message of the error `load` throws, which must be of type `Expected`.
template <typename Expected>
std::string error_of(const std::function<void()>& load) {
  try {
    load();
  } catch (const Expected& error) {
    return error.what();
  }
  ADD_FAILURE() << "no error thrown";
  return "";
}

std::string load_error(const fs::path& folder) {
  return error_of<DataError>([&] { (void)load_pretrained_model(folder); });
}

void expect_contains(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "message: " << message << "\nlacks: " << part;
}

TEST(PretrainedErrors, FolderWithoutConfigOrWeights) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  fs::remove(folder / "model.safetensors");
  expect_contains(load_error(folder), "no model.safetensors or model.safetensors.index.json");
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

TEST(PretrainedErrors, MissingExtraAndMisshapenTensorsAreNamed) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  const auto weights = folder / "model.safetensors";
  const std::string original = io::read_file(weights);
  edit_safetensors(weights, [](json& header, std::string&) { header.erase("classifier.weight"); });
  expect_contains(load_error(folder), "no tensor named 'classifier.weight'");

  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string&) { header["lm_head.bias"] = header["classifier.bias"]; });
  expect_contains(load_error(folder), weights.string() + ": unexpected tensor 'lm_head.bias' [3]");

  temp.write("bert-classifier/model.safetensors", original);
  edit_safetensors(weights, [](json& header, std::string&) { header["classifier.weight"]["shape"] = {32, 3}; });
  expect_contains(load_error(folder), "tensor 'classifier.weight' has shape [32, 3], expected [3, 32]");
}

TEST(PretrainedErrors, UnsupportedDtypeAndNanWeights) {
  const testing::TempFolder temp;
  const auto folder = copy_checkpoint(temp, "bert-classifier");
  const auto weights = folder / "model.safetensors";
  const std::string original = io::read_file(weights);
  edit_safetensors(weights, [](json& header, std::string&) { header["classifier.bias"]["dtype"] = "I64"; });
  expect_contains(load_error(folder), "tensor 'classifier.bias': unsupported dtype I64 (supported: F32, F16, BF16)");

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
