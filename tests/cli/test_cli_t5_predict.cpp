// `claimrag predict` on a T5 folder (MiniCheck-Flan-T5's family): its outputs are the logits of
// the label tokens --label-tokens names, the same for one and two threads; without the flag, or
// with a token outside the vocabulary, the command stops with exit code 2 and writes nothing.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

const fs::path kT5Folder = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/models/real-flan-t5-large";
const fs::path kT5Expected = fs::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/pretrained/expected/real-flan-t5-large.json";

std::string predict_command(const fs::path& pairs, const fs::path& out, const std::string& extra, bool quiet = false) {
  return std::string(quiet ? "--quiet " : "") + "predict --checkpoint " + kT5Folder.string() + " --pairs " + pairs.string() + " --out " + out.string() + " " + extra;
}

TEST(CliT5Predict, LabelTokensGiveTheReferenceLogitsForAnyThreadCount) {
  TempFolder temp;
  const auto expected = nlohmann::json::parse(slurp(kT5Expected)).at("cases");
  std::string lines;
  for (std::size_t i = 0; i < 3; ++i) lines += nlohmann::json({{"id", std::to_string(i)}, {"text", expected[i].at("text")}}).dump() + "\n";
  const auto pairs = temp.write("pairs.jsonl", lines);
  const auto one = run_claimrag(predict_command(pairs, temp.path() / "one.jsonl", "--label-tokens 3,209 --threads 1", true), temp.path());
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto two = run_claimrag(predict_command(pairs, temp.path() / "two.jsonl", "--label-tokens 3,209 --threads 2", true), temp.path());
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(slurp(temp.path() / "one.jsonl"), slurp(temp.path() / "two.jsonl"));
  const std::string text = slurp(temp.path() / "one.jsonl");
  std::size_t i = 0;
  for (std::size_t start = 0, end = text.find('\n'); end != std::string::npos; start = end + 1, end = text.find('\n', start), ++i) {
    const auto line = nlohmann::json::parse(text.substr(start, end - start));
    EXPECT_EQ(line.at("input_ids"), expected[i].at("input_ids"));
    const auto logits = line.at("logits").get<std::vector<double>>();
    const auto reference = expected[i].at("values").get<std::vector<double>>();
    ASSERT_EQ(logits.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) EXPECT_NEAR(logits[k], reference[k], 1e-5) << "line " << i;
  }
  EXPECT_EQ(i, 3U);
}

TEST(CliT5Predict, MissingOrOutOfVocabularyLabelTokensExitTwoAndWriteNothing) {
  TempFolder temp;
  const auto pairs = temp.write("pairs.jsonl", "{\"id\": \"a\", \"text\": \"predict: a chunk</s>a claim\"}\n");
  const auto out = temp.path() / "out.jsonl";
  const auto missing = run_claimrag(predict_command(pairs, out, ""), temp.path());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--label-tokens 3,209"), std::string::npos) << missing.err;
  const auto outside = run_claimrag(predict_command(pairs, out, "--label-tokens 3,100000"), temp.path());
  EXPECT_EQ(outside.exit_code, 2);
  EXPECT_NE(outside.err.find("label token 100000"), std::string::npos) << outside.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
