// The built-in verifier as a user without a model of their own meets it: `ground`, `verify
// --pairs`, `sufficiency` and `interrogate` need no --model (the free-text verifier is trained on
// SciFact once and cached under $XDG_CACHE_HOME/claimrag), a model of the open setting is refused
// naming the right one, other --verifier kinds are refused as unavailable, and a claim without a
// word is NOT_ENOUGH_INFO with one reason everywhere. Skipped without data/scifact.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::json_lines;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

using claimrag::testing::kTiny;
const std::string kFixture = "data/fixtures/grounding";

class CliBuiltinVerifier : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original/claims_train.jsonl")) return;
    folder_ = fs::temp_directory_path() / ("claimrag_CliBuiltinVerifier_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    // The cache of this suite, never the user's.
    ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);
    first_ = run_claimrag("ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                              (folder_ / "first.jsonl").string() + " --threads 1",
                          folder_);
    ready_ = first_.exit_code == 0;
  }
  static void TearDownTestSuite() {
    if (!folder_.empty()) fs::remove_all(folder_);
  }
  void SetUp() override {
    if (!fs::exists(fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original/claims_train.jsonl")) {
      GTEST_SKIP() << "data/scifact is missing (the built-in verifier is trained on it)";
    }
    ASSERT_TRUE(ready_) << first_.err;
  }
  static std::vector<fs::path> cached() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder_ / "cache" / "claimrag")) files.push_back(entry.path());
    return files;
  }
  static inline fs::path folder_;
  static inline claimrag::testing::Outcome first_;
  static inline bool ready_ = false;
};

TEST_F(CliBuiltinVerifier, GroundTrainsOnceCachesAndReusesTheSameModel) {
  EXPECT_NE(first_.err.find("trained the free-text verifier"), std::string::npos) << first_.err;
  EXPECT_NE(first_.err.find("cached in"), std::string::npos) << first_.err;
  const auto files = cached();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files.front().filename().string().starts_with("verifier-free_text-"));
  TempFolder folder;
  const auto again = run_claimrag("ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                                      (folder.path() / "again.jsonl").string() + " --threads 2",
                                  folder.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.err.find("trained the free-text verifier"), std::string::npos) << again.err;
  EXPECT_NE(again.err.find(files.front().string()), std::string::npos) << again.err;
  EXPECT_EQ(slurp(folder.path() / "again.jsonl"), slurp(folder_ / "first.jsonl"));
  EXPECT_EQ(cached().size(), 1u);
}

TEST_F(CliBuiltinVerifier, AModelOfTheOpenSettingIsRefusedNamingTheFreeTextOne) {
  TempFolder folder;
  const auto open = folder.path() / "open.safetensors";
  // verify --claim trains the open setting (BM25's top k of SciFact's train claims) and saves it.
  const auto trained = run_claimrag("--quiet verify --data data/scifact/beir --claim 'Aspirin lowers risk.' --original "
                                    "data/scifact/original --save-model " + open.string(),
                                    folder.path());
  ASSERT_EQ(trained.exit_code, 0) << trained.err;
  for (const std::string& command : {"ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                                        (folder.path() / "g.jsonl").string(),
                                    "verify --pairs " + kFixture + "/pairs.jsonl --out " + (folder.path() / "p.jsonl").string()}) {
    const auto refused = run_claimrag(command + " --model " + open.string(), folder.path());
    EXPECT_EQ(refused.exit_code, 3) << command;
    EXPECT_NE(refused.err.find("open setting"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("free-text verifier"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(folder.path() / "g.jsonl"));
    EXPECT_FALSE(fs::exists(folder.path() / "p.jsonl"));
  }
}

TEST_F(CliBuiltinVerifier, AServedVerifierOutOfReachStopsTheCommandNamingIt) {
  TempFolder folder;
  // Nothing listens on port 9 (discard): every attempt is refused, and no verdict is made up.
  const auto refused = run_claimrag("ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                                        (folder.path() / "g.jsonl").string() + " --verifier tei:http://127.0.0.1:9/",
                                    folder.path());
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.err.find("http://127.0.0.1:9: POST /predict failed"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(folder.path() / "g.jsonl"));
  EXPECT_FALSE(fs::exists(folder.path() / "g.meta.json"));
}

TEST_F(CliBuiltinVerifier, WithoutSciFactOrAModelTheErrorSaysHowToGetOne) {
  TempFolder folder;
  // A configuration whose SciFact release layout is not there (and a cache of nothing).
  const auto config = folder.write("config.json", R"({"data": {"original": "nowhere"}})");
  ::setenv("XDG_CACHE_HOME", (folder.path() / "empty-cache").c_str(), 1);
  const auto refused = run_claimrag("ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                                        (folder.path() / "g.jsonl").string() + " --config " + config.string(),
                                    folder.path());
  ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("get-data.sh"), std::string::npos) << refused.err;  // the source tree's script
  EXPECT_NE(refused.err.find("--model"), std::string::npos) << refused.err;
}

TEST_F(CliBuiltinVerifier, TheCacheIsOptionalAnUnwritableOneCostsAWarningNotTheVerdicts) {
  TempFolder folder;
  const auto ground_with_cache = [&](const fs::path& cache, const std::string& out) {
    ::setenv("XDG_CACHE_HOME", cache.c_str(), 1);
    auto outcome = run_claimrag("ground --data " + kTiny + " --answers " + kFixture + "/answers.jsonl --out " +
                                    (folder.path() / out).string() + " --threads 1",
                                folder.path());
    ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);
    return outcome;
  };
  // A cache folder that cannot be made (its parent is a file): trained, warned once, answered.
  const auto blocker = folder.write("not-a-folder", "x");
  const auto unwritable = ground_with_cache(blocker, "unwritable.jsonl");
  EXPECT_EQ(unwritable.exit_code, 0) << unwritable.err;
  EXPECT_NE(unwritable.err.find("the verifier cache cannot be written"), std::string::npos) << unwritable.err;
  EXPECT_EQ(slurp(folder.path() / "unwritable.jsonl"), slurp(folder_ / "first.jsonl"));
  // A FIFO where the cached model is: neither read nor written (either would block), not fatal.
  const auto fifo_cache = folder.path() / "fifo-cache";
  fs::create_directories(fifo_cache / "claimrag");
  for (const auto& file : cached()) ASSERT_EQ(::mkfifo((fifo_cache / "claimrag" / file.filename()).c_str(), 0600), 0);
  const auto fifo = ground_with_cache(fifo_cache, "fifo.jsonl");
  EXPECT_EQ(fifo.exit_code, 0) << fifo.err;
  EXPECT_NE(fifo.err.find("is a FIFO (named pipe)"), std::string::npos) << fifo.err;
  EXPECT_NE(fifo.err.find("training it again, without caching it"), std::string::npos) << fifo.err;
  EXPECT_EQ(slurp(folder.path() / "fifo.jsonl"), slurp(folder_ / "first.jsonl"));
}

TEST_F(CliBuiltinVerifier, AClaimWithoutAWordIsNotEnoughInfoEverywhere) {
  TempFolder folder;
  const auto answers = folder.path() / "answers.jsonl";
  std::ofstream(answers) << R"({"id": "x", "answer": "?!... ;;; !!!", "context": ["d1"]})" << "\n";
  ASSERT_EQ(run_claimrag("--quiet ground --data " + kTiny + " --answers " + answers.string() + " --out " +
                             (folder.path() / "g.jsonl").string(),
                         folder.path())
                .exit_code,
            0);
  const auto grounded = json_lines(folder.path() / "g.jsonl");
  ASSERT_EQ(grounded.size(), 1u);
  for (const auto& claim : grounded[0]["claims"]) EXPECT_FALSE(claim["kept"].get<bool>()) << claim.dump();
  EXPECT_EQ(grounded[0]["answer"], "I don't know");

  const auto pairs = folder.path() / "pairs.jsonl";
  std::ofstream(pairs) << R"({"id": "x", "claim": "?!... ;;; !!!", "evidence": "Aspirin lowers the risk of stroke."})" << "\n";
  ASSERT_EQ(run_claimrag("--quiet verify --pairs " + pairs.string() + " --out " + (folder.path() / "v.jsonl").string(), folder.path())
                .exit_code,
            0);
  const auto verdicts = json_lines(folder.path() / "v.jsonl");
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0]["label"], "NOT_ENOUGH_INFO") << verdicts[0].dump();
  EXPECT_EQ(verdicts[0]["reason"], "the claim has no word");
}

}  // namespace
