// claimrag verify end to end: bad input stops before any model is loaded or trained, names the
// file and line, exits with the documented code and leaves no output file.

#include <gtest/gtest.h>

#include <filesystem>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::TempFolder;

namespace {

const std::string kTiny = "data/fixtures/tiny-beir";

/// `verify --pairs` on a file whose third line is `bad_line`: exit 3, `file:3: reason`, no output.
void expect_bad_pairs(const std::string& bad_line, const std::string& reason) {
  TempFolder folder;
  const auto pairs = folder.write("pairs.jsonl", "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}\n\n" + bad_line + "\n");
  const auto out = folder.path() / "verdicts.jsonl";
  const auto outcome = run_claimrag("verify --pairs " + pairs.string() + " --out " + out.string() + " --model absent.safetensors",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find(pairs.string() + ":3: " + reason), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace

TEST(CliVerify, BadPairsNameFileAndLineAndWriteNothing) {
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"c\"", "malformed JSON");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"c\"}", "\"evidence\" is missing");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": \"\", \"evidence\": \"e\"}", "\"claim\" is empty");
  expect_bad_pairs("{\"id\": \"b\", \"claim\": [1], \"evidence\": \"e\"}", "\"claim\" is not a string");
  expect_bad_pairs("{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}", "duplicate id \"a\" (first on line 1)");
}

TEST(CliVerify, FlagsOfTwoModesOrNoneAreUsageErrors) {
  TempFolder folder;
  const auto none = run_claimrag("verify --data " + kTiny, folder.path());
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("give exactly one of --run, --pairs and --claim"), std::string::npos) << none.err;
  const auto two = run_claimrag("verify --data " + kTiny + " --claim 'x' --pairs p.jsonl", folder.path());
  EXPECT_EQ(two.exit_code, 2);
  const auto json_with_pairs = run_claimrag("verify --pairs p.jsonl --out o.jsonl --json", folder.path());
  EXPECT_EQ(json_with_pairs.exit_code, 2);
  EXPECT_NE(json_with_pairs.err.find("--json does not apply with --pairs"), std::string::npos) << json_with_pairs.err;
}

TEST(CliVerify, ARunNamingADocumentOutsideTheCorpusIsADataErrorAndWritesNothing) {
  TempFolder folder;
  const auto run = folder.write("run.trec", "q1 Q0 d99 1 3 t\n");
  const auto out = folder.path() / "pred.jsonl";
  const auto outcome = run_claimrag("verify --data " + kTiny + " --split test --run " + run.string() + " --k 3 --out " + out.string() +
                                        " --model absent.safetensors",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find(run.string() + ": claim q1 ranks document d99"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}
