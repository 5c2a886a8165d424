// The README's tour, run as written, so that the README cannot drift from the program: every
// `build/claimrag` line of its section "A five-minute tour" runs on the committed examples/, and
// what it prints (with the files its `cat` lines show) must match the `text` block under it. A
// decimal number the README shows matches any number where a trained model decides it (the
// verifiers are trained by this suite, so their digits may differ from a reproduction's), and
// "…" matches anything; labels, ids, texts and structure must be as shown. compare-abstention
// reads no model, so its output must match to the digit.
//
// `verify --pairs`, `ground`, `sufficiency` and `interrogate` run as a new user runs them, without
// --model: the free-text verifier is trained on SciFact's train claims the first time and cached
// under $XDG_CACHE_HOME/claimrag, here a folder of this suite's, warmed once before the tour. The
// tour's first step names the reproduction's free-text model (runs/scifact/models/...); this suite
// saves the one it trains, the same model. It skips without data/scifact. Outputs go to a temporary
// folder in place of tour/.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <cstdlib>
#include <unistd.h>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

/// One step of the tour: the lines of a ```sh block and the lines of the ```text block after it.
struct TourStep {
  std::vector<std::string> commands;
  std::vector<std::string> shown;
};

std::vector<TourStep> read_tour(const std::filesystem::path& readme) {
  std::ifstream in(readme);
  std::vector<TourStep> steps;
  bool in_tour = false;
  enum class Block { none, commands, shown } block = Block::none;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_tour = line.rfind("## A five-minute tour", 0) == 0;
    if (!in_tour) continue;
    if (block == Block::none && line == "```sh") {
      steps.emplace_back();
      block = Block::commands;
    } else if (block == Block::none && line == "```text" && !steps.empty()) {
      block = Block::shown;
    } else if (block != Block::none && line == "```") {
      block = Block::none;
    } else if (block == Block::commands) {
      steps.back().commands.push_back(line);
    } else if (block == Block::shown) {
      steps.back().shown.push_back(line);
    }
  }
  return steps;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

/// A line the README shows, as a pattern: "…" matches anything and, unless `exact`, a decimal
/// number matches any number.
std::regex pattern_of(const std::string& shown, bool exact) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  static const std::regex decimal(R"(-?[0-9]+\\\.[0-9]+(e-?[0-9]+)?)");
  std::string pattern = std::regex_replace(shown, special, R"(\$&)");
  if (!exact) pattern = std::regex_replace(pattern, decimal, R"(-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?)");
  pattern = replace_all(pattern, "…", ".*");
  return std::regex(pattern);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class CliTour : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path source(CLAIMRAG_SOURCE_DIR);
    if (!std::filesystem::exists(source / "data/scifact/original/claims_train.jsonl")) return;
    folder_ = std::filesystem::temp_directory_path() / ("claimrag_CliTour_" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder_);
    const std::string folder = folder_.string();
    // The free-text verifier, trained into this suite's cache by the first command that needs it
    // and saved for the step that names the reproduction's copy of it.
    ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);
    const auto free_text = run_claimrag("--quiet verify --pairs examples/pairs.jsonl --out " + folder + "/pairs.jsonl --save-model " +
                                            folder + "/free_text.safetensors",
                                        folder_);
    trained_ = free_text.exit_code == 0;
    if (!trained_) std::cerr << free_text.err;
  }
  static void TearDownTestSuite() {
    if (!folder_.empty()) std::filesystem::remove_all(folder_);
  }
  void SetUp() override {
    if (folder_.empty()) GTEST_SKIP() << "data/scifact is missing (the tour's verifiers are trained on it)";
    ASSERT_TRUE(trained_) << "training the tour's verifiers failed";
  }

  /// The tour's text with the reproduction's files and tour/ replaced by this suite's.
  static std::string localised(std::string text, const std::filesystem::path& out) {
    text = replace_all(text, "runs/scifact/models/verifier_free_text.safetensors", (folder_ / "free_text.safetensors").string());
    text = replace_all(text, "runs/scifact/models/sufficiency_aggregator_free_text.json", "data/fixtures/sufficiency/aggregator_free_text.json");
    return replace_all(text, "tour/", out.string() + "/");
  }

  static inline std::filesystem::path folder_;
  static inline bool trained_ = false;
};

TEST_F(CliTour, EveryCommandOfTheReadmeTourPrintsWhatTheReadmeShows) {
  const auto steps = read_tour(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "README.md");
  // The tour covers these, so that a step cannot silently disappear from the README.
  std::string all;
  for (const auto& step : steps) {
    for (const auto& command : step.commands) all += command + "\n";
  }
  for (const char* needed : {"build/claimrag verify --data examples/abstracts --claim", "build/claimrag verify --pairs examples/",
                             "build/claimrag ground ", "build/claimrag sufficiency ", "build/claimrag interrogate ",
                             "build/claimrag compare-abstention "}) {
    EXPECT_NE(all.find(needed), std::string::npos) << "the tour lacks " << needed;
  }
  TempFolder scratch;  // the captured streams; the tour's outputs in its tour/
  const auto out = scratch.path() / "tour";
  for (const auto& step : steps) {
    std::string printed;
    bool exact = false;
    for (const auto& command : step.commands) {
      const std::string line = localised(command, out);
      if (line.rfind("build/claimrag ", 0) == 0) {
        exact = exact || line.find(" compare-abstention ") != std::string::npos;
        const auto outcome = run_claimrag(line.substr(std::string("build/claimrag ").size()), scratch.path());
        ASSERT_EQ(outcome.exit_code, 0) << command << "\n" << outcome.err;
        printed += outcome.out;
      } else if (line.rfind("cat ", 0) == 0) {
        const std::filesystem::path file = line.substr(4);
        ASSERT_TRUE(std::filesystem::exists(file)) << command;
        printed += slurp(file);
      } else {
        ASSERT_TRUE(line.empty() || line[0] == '#') << "the tour runs only build/claimrag and cat: " << command;
      }
    }
    const auto actual = lines_of(printed);
    ASSERT_EQ(actual.size(), step.shown.size()) << step.commands.front() << "\nprinted:\n" << printed;
    for (std::size_t i = 0; i < actual.size(); ++i) {
      EXPECT_TRUE(std::regex_match(actual[i], pattern_of(step.shown[i], exact)))
          << step.commands.front() << "\nREADME: " << step.shown[i] << "\nprinted: " << actual[i];
    }
  }
}

TEST(CliTourInputs, CompareAbstentionOnAUsersTableComparesAgainstItsFirstStrategyOrListsThem) {
  TempFolder folder;
  const auto first = run_claimrag("compare-abstention --test examples/abstention.tsv --out " + (folder.path() / "a").string(),
                                  folder.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("risk_at_30_p_vs_retrieval_score (1000 resamples)"), std::string::npos) << first.out;
  EXPECT_NE(first.err.find("the reference is retrieval_score, the table's first strategy"), std::string::npos) << first.err;
  const auto unknown = run_claimrag("compare-abstention --test examples/abstention.tsv --reference bm25_top1 --out " +
                                        (folder.path() / "b").string(),
                                    folder.path());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("(its strategies: retrieval_score, verifier_probability)"), std::string::npos) << unknown.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "b"));
}

TEST(CliTourInputs, PValuesBelowOneInAThousandPrintAsSuchWithTheResampleCount) {
  TempFolder folder;
  // 40 claims, every other one unsafe: "good" answers the 20 safe ones first, "bad" the unsafe
  // ones, so at 30 % coverage good's risk is 0 and bad's 1 in every resample: p = 0 < 0.001.
  std::string table = "claim_id\tanswered\tunsafe\tbad\tgood\n";
  for (int c = 0; c < 40; ++c) {
    const bool unsafe = c % 2 == 1;
    table += "c" + std::to_string(c) + "\t1\t" + (unsafe ? "1" : "0") + "\t" + (unsafe ? "2" : "1") + "\t" + (unsafe ? "1" : "2") + "\n";
  }
  const auto test = folder.write("claims.tsv", table);
  const auto outcome = run_claimrag("compare-abstention --resamples 200 --test " + test.string() + " --out " + (folder.path() / "out").string(),
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("\trisk_at_30_p_vs_bad (200 resamples)\n"), std::string::npos) << outcome.out;
  // good's risk is 0 for its first 20 answers, then j / (20 + j) after j unsafe ones; bad's is its
  // complement at every coverage.
  double good_aurc = 0;
  for (int j = 1; j <= 20; ++j) good_aurc += j / (20.0 + j) / 40;
  char good[64], bad[64];
  std::snprintf(good, sizeof good, "good\t%.4f\t0.0000\t0.0000\t0.0000\t< 0.001\n", good_aurc);
  std::snprintf(bad, sizeof bad, "bad\t%.4f\t1.0000\t1.0000\t1.0000\t-\n", 1 - good_aurc);
  EXPECT_NE(outcome.out.find(good), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find(bad), std::string::npos) << outcome.out;
  // The file keeps the number.
  EXPECT_NE(slurp(folder.path() / "out/abstention.tsv").find("\t0.0000"), std::string::npos);
}

}  // namespace
