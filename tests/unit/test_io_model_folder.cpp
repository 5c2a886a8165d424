// The depth of a JSON text measured before parsing, and the files of a model folder as inputs:
// which files are listed, and what check_model_folder refuses.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/model_folder.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "support/temp_folder.hpp"

namespace fs = std::filesystem;
using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

TEST(JsonDepth, CountsNestedArraysAndObjectsButNotBracketsInStrings) {
  EXPECT_EQ(io::json_nesting_depth("1"), 0U);
  EXPECT_EQ(io::json_nesting_depth("[]"), 1U);
  EXPECT_EQ(io::json_nesting_depth(R"({"a": [1, {"b": []}], "c": {}})"), 4U);
  EXPECT_EQ(io::json_nesting_depth(R"(["[[[[", "\"[[[", {"k\\": "{{{"}])"), 2U);
  EXPECT_EQ(io::json_nesting_depth(std::string(1000, '[')), io::kMaxJsonDepth + 1);  // stops past the limit
  EXPECT_EQ(io::json_nesting_depth(std::string(50, '[') + std::string(50, ']'), 10), 11U);
}

TEST(JsonDepth, RefusesTextsDeeperThanTheLimitNamingTheSource) {
  const std::string at_limit = std::string(io::kMaxJsonDepth, '[') + std::string(io::kMaxJsonDepth, ']');
  EXPECT_EQ(io::depth_checked(at_limit, "f.json"), at_limit);
  EXPECT_EQ(nlohmann::json::parse(io::depth_checked(at_limit, "f.json")).size(), 1U);
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  expect_error<DataError>([&] { (void)io::depth_checked(deep, "f.json"); }, "f.json: JSON nested deeper than 128 levels");
  TempFolder folder;
  const auto file = folder.write("deep.json", "{\"a\": " + deep + "}");
  expect_error<DataError>([&] { (void)io::read_json_text(file); }, file.string() + ": JSON nested deeper");
}

namespace {

std::vector<std::string> listed_names(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& file : io::model_folder_files(folder)) names.push_back(fs::relative(file.path, folder).string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST(ModelFolderFiles, ListsConfigurationTokenizerWeightsShardsAndModuleConfigs) {
  TempFolder folder;
  for (const char* name : {"config.json", "vocab.txt", "tokenizer_config.json", "modules.json", "notes.md", "run.trec"}) {
    folder.write(name, "{}");
  }
  folder.write("modules.json", R"([{"path": ""}, {"path": "1_Pooling"}, {"path": "../outside"}, {"path": "2_Normalize"}])");
  folder.write("1_Pooling/config.json", "{}");
  folder.write("model.safetensors.index.json", R"({"weight_map": {"a": "part-1.safetensors", "b": "part-2.bin", "c": "../x"}})");
  folder.write("part-1.safetensors", "");
  folder.write("part-2.bin", "");
  folder.write("extra.safetensors", "");
  EXPECT_EQ(listed_names(folder.path()),
            (std::vector<std::string>{"1_Pooling/config.json", "config.json", "extra.safetensors", "model.safetensors.index.json",
                                      "modules.json", "part-1.safetensors", "part-2.bin", "tokenizer_config.json", "vocab.txt"}));
  EXPECT_TRUE(io::model_folder_files(folder.path() / "absent").empty());
  EXPECT_TRUE(io::model_folder_files(folder.path() / "notes.md").empty());
  // A folder without config.json or modules.json is no model folder: a BEIR folder, an index.
  folder.write("beir/corpus.jsonl", "");
  folder.write("beir/vocab.txt", "");
  folder.write("beir/reranker.safetensors", "");
  EXPECT_TRUE(io::model_folder_files(folder.path() / "beir").empty());
}

TEST(ModelFolderFiles, AnIndexThatCannotBeReadListsNoShardAndNeverBlocks) {
  TempFolder folder;
  folder.write("config.json", "{}");
  ASSERT_EQ(::mkfifo((folder.path() / "model.safetensors.index.json").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo((folder.path() / "modules.json").c_str(), 0600), 0);
  EXPECT_EQ(listed_names(folder.path()), (std::vector<std::string>{"config.json", "model.safetensors.index.json", "modules.json"}));
  expect_error<DataError>([&] { (void)io::check_model_folder(folder.path()); }, "FIFO (named pipe)");
}

TEST(ModelFolderFiles, CheckRefusesDevicesLoopsFoldersAndOversizedFilesByName) {
  TempFolder folder;
  const auto config = folder.path() / "config.json";
  fs::create_symlink("/dev/null", config);
  expect_error<DataError>([&] { (void)io::check_model_folder(folder.path()); }, config.string() + ": is a device");
  fs::remove(config);
  fs::create_symlink("config.json", config);
  expect_error<DataError>([&] { (void)io::check_model_folder(folder.path()); }, config.string() + ": a loop of symbolic links");
  fs::remove(config);
  fs::create_directory(config);
  expect_error<DataError>([&] { (void)io::check_model_folder(folder.path()); }, "is a folder");
  fs::remove(config);
  folder.write("config.json", "{}");
  fs::resize_file(config, io::kMaxSettingsFileBytes + 1);
  expect_error<DataError>([&] { (void)io::check_model_folder(folder.path()); }, "more than the 16 MiB");
  folder.write("config.json", "{}");
  fs::create_symlink("nowhere", folder.path() / "vocab.txt");  // a broken link reads as absent
  EXPECT_EQ(io::check_model_folder(folder.path()).size(), 2U);
}

TEST(ModelFolderFiles, AModelFileDeclaredAsAnOutputIsRefused) {
  TempFolder folder;
  folder.write("config.json", "{}");
  folder.write("pairs.jsonl", "");
  // Declared with the folder among the inputs: refused before any work.
  expect_error<UsageError>(
      [&] { io::OutputPlan plan({.inputs = {folder.path()}, .files = {folder.path() / "config.json"}}); },
      "refusing to overwrite an input");
  // Declared without it: refused when the model is opened.
  io::OutputPlan plan({.inputs = {folder.path() / "pairs.jsonl"}, .files = {folder.path() / "config.json"}});
  expect_error<UsageError>([&] { (void)io::check_model_folder(folder.path()); }, "is also an output of the command");
}

TEST(ModelConfigRanges, SizesPositionsPadAndEpsilonAreCheckedBeforeUse) {
  TempFolder folder;
  const nlohmann::json base = {{"model_type", "bert"},      {"vocab_size", 100},        {"hidden_size", 8},
                               {"num_hidden_layers", 1},    {"num_attention_heads", 2}, {"intermediate_size", 16},
                               {"architectures", {"BertForSequenceClassification"}}};
  folder.write("config.json", base.dump());
  EXPECT_NO_THROW((void)pretrained::read_model_config(folder.path()));
  const std::vector<std::pair<nlohmann::json, std::string>> cases = {
      {{{"pad_token_id", -2}}, "\"pad_token_id\" -2 is not a token id"},
      {{{"pad_token_id", 100}}, "\"pad_token_id\" 100 is not a token id"},
      {{{"max_position_embeddings", 1000000000}}, "\"max_position_embeddings\" is 1000000000, more than the 1048576"},
      {{{"vocab_size", 4611686018427387904}}, "\"vocab_size\" is 4611686018427387904"},
      {{{"num_hidden_layers", 100000}}, "\"num_hidden_layers\""},
      {{{"layer_norm_eps", -1}}, "\"layer_norm_eps\" must be a positive number"},
      {{{"layer_norm_eps", 1e-60}}, "\"layer_norm_eps\" must be a positive number"},
      {{{"id2label", {{"0", "yes"}, {"1", "no"}, {"2", "yes"}}}}, "names label 'yes' twice (ids 0 and 2)"},
  };
  for (const auto& [change, fragment] : cases) {
    nlohmann::json config = base;
    config.merge_patch(change);
    folder.write("config.json", config.dump());
    expect_error<DataError>([&] { (void)pretrained::read_model_config(folder.path()); }, fragment);
  }
}
