// A JSON text holding a number no double holds (1e400) is a data error naming the file and the
// line, found before parsing, never nlohmann's out_of_range turned into an internal error.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/pretrained/pretrained_model.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"
#include "checkpoint_editing.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace io = claimrag::io;
using claimrag::DataError;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

// Rewrites the JSON file `file` with `key` set to the literal 1e400, one key a line.
void put_overflowing_number(const std::filesystem::path& file, const std::string& key) {
  auto document = nlohmann::json::parse(io::read_file(file));
  document[key] = "OVERFLOW-MARKER";
  std::string text = document.dump(2);
  text.replace(text.find("\"OVERFLOW-MARKER\""), 17, "1e400");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

TEST(JsonNumbers, ANumberNoDoubleHoldsIsADataErrorNamingTheFileAndLine) {
  expect_error<DataError>([] { (void)io::depth_checked("{\n  \"eps\": 1e400\n}", "config.json"); },
                          "config.json:2: the number 1e400 is out of range");
  expect_error<DataError>([] { (void)io::depth_checked("[-1E+400]", "tokenizer.json"); }, "tokenizer.json:1: the number -1E+400");
  expect_error<DataError>([] { (void)io::depth_checked("[" + std::string(400, '9') + "]", "t.json"); }, "t.json:1: the number 999");
  // What a double holds, a tiny number (0, as the reference reads it) and text that looks like one pass.
  EXPECT_NO_THROW((void)io::depth_checked(R"({"a": 1e308, "b": 1e-400, "c": "1e400", "d": -0.5e-3, "e\"1e400": 2})", "ok.json"));
}

TEST(JsonNumbers, AConfigurationFileWithAnOverflowingNumberNamesItself) {
  TempFolder folder;
  const auto config = folder.write("exp.json", "{\n  \"seed\": 42,\n  \"bm25\": {\"k1\": 1e400}\n}\n");
  expect_error<DataError>([&] { (void)claimrag::experiment::load_config(config); }, "exp.json:3: the number 1e400 is out of range");
}

TEST(JsonNumbers, AModelFoldersSettingsFileWithAnOverflowingNumberNamesItselfAndTheLine) {
  for (const std::string file : {"config.json", "tokenizer_config.json"}) {
    const TempFolder temp;
    const auto folder = claimrag::testing::copy_checkpoint(temp, "bert-classifier");
    put_overflowing_number(folder / file, "zz_last_key");  // sorted last: on the line before the closing brace
    const std::string message = claimrag::testing::error_of<DataError>([&] {
      (void)claimrag::pretrained::load_pretrained_model(folder);
      (void)claimrag::tokenizer::load_tokenizer(folder, "bert");  // the model's loader leaves the tokenizer to its user
    });
    const std::string text = io::read_file(folder / file);
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    claimrag::testing::expect_contains(message, (folder / file).string() + ":" + std::to_string(lines) +
                                                    ": the number 1e400 is out of range");
  }
}
