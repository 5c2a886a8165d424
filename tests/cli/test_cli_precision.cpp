// `--precision int8` end to end on committed tiny checkpoints: predict's outputs move by a little
// and stay the same bytes for any thread count and batch size; the verifier's record says which
// precision ran; a dense index is queried only at the precision it was encoded with; an unknown
// precision is a usage error with nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using namespace claimrag::testing;
using nlohmann::json;

const std::string kCheckpoint = std::string(CLAIMRAG_SOURCE_DIR) + "/tests/fixtures/pretrained/models/bert-classifier";

fs::path pairs_file(TempFolder& folder) {
  std::ostringstream pairs;
  const std::vector<std::pair<std::string, std::string>> texts{{"the drug reduces risk of cancer", "the drug reduces risk"},
                                                               {"no effect on cells", "the protein has high effect on cells"},
                                                               {"a cat sat on the mat", "the dog ran"},
                                                               {"aspirin lowers the risk of stroke in older adults", "aspirin"}};
  for (std::size_t i = 0; i < texts.size(); ++i) {
    pairs << json{{"id", std::to_string(i)}, {"text", texts[i].first}, {"text_pair", texts[i].second}}.dump() << "\n";
  }
  return folder.write("pairs.jsonl", pairs.str());
}

// Run from the scratch folder, as a user runs it from their own, not the repository's.
std::string predict(TempFolder& folder, const std::string& name, const std::string& flags) {
  const auto out = folder.path() / name;
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + kCheckpoint + " --pairs " + pairs_file(folder).string() +
                                        " --out " + out.string() + " " + flags,
                                    folder.path(), folder.path());
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  return slurp(out);
}

TEST(CliPrecision, Int8MovesTheLogitsALittleAndKeepsItsBytesForAnyThreadsAndBatches) {
  TempFolder folder;
  const std::string f32 = predict(folder, "f32.jsonl", "");
  const std::string int8 = predict(folder, "int8.jsonl", "--precision int8 --threads 1 --batch-size 1");
  EXPECT_EQ(predict(folder, "explicit-f32.jsonl", "--precision f32"), f32);
  EXPECT_NE(int8, f32);
  EXPECT_EQ(predict(folder, "int8-2.jsonl", "--precision int8 --threads 2 --batch-size 3"), int8);
  const auto a = json_lines(folder.path() / "f32.jsonl");
  const auto b = json_lines(folder.path() / "int8.jsonl");
  ASSERT_EQ(a.size(), b.size());
  double largest = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < a[i]["logits"].size(); ++j) {
      largest = std::max(largest, std::abs(a[i]["logits"][j].get<double>() - b[i]["logits"][j].get<double>()));
    }
  }
  EXPECT_GT(largest, 0.0);
  // The fixture's logits are about 1 in size; rounding each layer's weights and inputs to 8 bits
  // (about 1 % of each product) through its 3 layers moves them by a few hundredths.
  EXPECT_LT(largest, 0.05);
}

TEST(CliPrecision, TheVerifierRecordSaysWhichPrecisionRan) {
  TempFolder folder;
  std::ostringstream pairs;
  pairs << json{{"id", "1"}, {"claim", "the drug reduces risk"}, {"evidence", "the drug reduces risk of cancer"}}.dump() << "\n";
  const auto input = folder.write("verify-pairs.jsonl", pairs.str());
  for (const std::string precision : {"f32", "int8"}) {
    const auto out = folder.path() / ("verdicts-" + precision + ".jsonl");
    const auto outcome = run_claimrag("--quiet verify --pairs " + input.string() + " --out " + out.string() + " --verifier checkpoint:" +
                                          kCheckpoint + " --precision " + precision,
                                      folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    const auto meta = json::parse(slurp(folder.path() / ("verdicts-" + precision + ".meta.json")));
    const auto& checkpoint = meta["verifier"]["checkpoint"];
    EXPECT_EQ(checkpoint["precision"], precision);
  }
}

TEST(CliPrecision, ADenseIndexIsQueriedAtThePrecisionItWasEncodedWith) {
  TempFolder folder;
  const auto index = folder.path() / "index";
  const std::string data = " --data data/fixtures/tiny-beir";
  const auto built = run_claimrag("--quiet index" + data + " --method dense --encoder tests/fixtures/pretrained/models/bert-embedding-sharded --out " +
                                      index.string() + " --precision int8",
                                  folder.path());
  ASSERT_EQ(built.exit_code, 0) << built.err;
  const auto run = folder.path() / "run.tsv";
  const std::string retrieve = "--quiet retrieve" + data + " --index " + index.string() + " --method dense --split test --k 3 --out " + run.string();
  const auto mixed = run_claimrag(retrieve, folder.path());
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.err.find("give --precision int8"), std::string::npos) << mixed.err;
  EXPECT_FALSE(fs::exists(run));
  const auto same = run_claimrag(retrieve + " --precision int8", folder.path());
  EXPECT_EQ(same.exit_code, 0) << same.err;
  EXPECT_TRUE(fs::exists(run));
}

TEST(CliPrecision, AnUnknownPrecisionIsAUsageErrorWithNothingWritten) {
  TempFolder folder;
  const auto out = folder.path() / "out.jsonl";
  const auto outcome = run_claimrag("--quiet predict --checkpoint " + kCheckpoint + " --pairs " + pairs_file(folder).string() +
                                        " --out " + out.string() + " --precision fp16",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--precision"), std::string::npos) << outcome.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
