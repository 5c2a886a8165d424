// The same result from any folder, and from an installed claimrag: `verify --pairs` and `ground`
// without --config use the shipped configuration compiled into the binary, its files from the
// source tree (a build folder's claimrag) or from <prefix>/share/claimrag (an installed one), so
// their outputs are byte-identical to the ones made at the repository root. A machine without
// SciFact's training files uses the free-text verifier cached by the same configuration. Skips
// without data/scifact (the verifier is trained on it once, into the suite's cache).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace {

namespace fs = std::filesystem;
using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;

const fs::path kSource = CLAIMRAG_SOURCE_DIR;

/// Runs `binary arguments` from `working_directory` with the environment's extra `assignments`
/// ("NAME=value ..."), its streams in `scratch`; the exit code.
int run_in(const fs::path& binary, const std::string& arguments, const fs::path& working_directory, const fs::path& scratch,
           const std::string& assignments = "") {
  const std::string command = "cd '" + working_directory.string() + "' && " + assignments + " '" + binary.string() + "' --quiet " +
                              arguments + " > '" + (scratch / "stdout.txt").string() + "' 2> '" +
                              (scratch / "stderr.txt").string() + "' < /dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The two commands with their inputs named from `root` ("" for relative names) and outputs in `out`.
std::string verify_pairs(const std::string& root, const fs::path& out) {
  return "verify --pairs " + root + "examples/pairs.jsonl --out " + (out / "verdicts.jsonl").string();
}
std::string ground(const std::string& root, const fs::path& out) {
  return "ground --data " + root + "examples/abstracts --answers " + root + "examples/answers.jsonl --out " +
         (out / "grounded.jsonl").string();
}

class CliAnyFolder : public ::testing::Test {
 protected:
  // The outputs made at the repository root with relative names, as the README's tour runs them.
  static void SetUpTestSuite() {
    if (!fs::exists(kSource / "data/scifact/original/claims_train.jsonl")) return;
    folder_ = fs::temp_directory_path() / ("claimrag_CliAnyFolder_" + std::to_string(::getpid()));
    fs::create_directories(folder_ / "root");
    ::setenv("XDG_CACHE_HOME", (folder_ / "cache").c_str(), 1);
    made_ = run_claimrag("--quiet " + verify_pairs("", folder_ / "root"), folder_).exit_code == 0 &&
            run_claimrag("--quiet " + ground("", folder_ / "root"), folder_).exit_code == 0;
    if (!made_) std::cerr << slurp(folder_ / "stderr.txt");
  }
  static void TearDownTestSuite() {
    if (!folder_.empty()) fs::remove_all(folder_);
  }
  void SetUp() override {
    if (folder_.empty()) GTEST_SKIP() << "data/scifact is missing (the free-text verifier is trained on it)";
    ASSERT_TRUE(made_) << "the commands failed at the repository root";
  }

  /// Runs both commands with `binary` from an empty folder, inputs named absolutely, and expects
  /// the root's bytes.
  static void expect_root_bytes(const fs::path& binary, const std::string& label, const std::string& assignments = "") {
    const fs::path elsewhere = folder_ / label;
    fs::create_directories(elsewhere / "out");
    const std::string root = kSource.string() + "/";
    for (const auto& [command, file] : {std::pair{verify_pairs(root, elsewhere / "out"), "verdicts.jsonl"},
                                        std::pair{ground(root, elsewhere / "out"), "grounded.jsonl"}}) {
      ASSERT_EQ(run_in(binary, command, elsewhere, folder_, assignments), 0) << label << ": " << command << "\n"
                                                                             << slurp(folder_ / "stderr.txt");
      EXPECT_EQ(slurp(elsewhere / "out" / file), slurp(folder_ / "root" / file)) << label << ": " << file;
    }
  }

  static inline fs::path folder_;
  static inline bool made_ = false;
};

TEST_F(CliAnyFolder, VerifyPairsAndGroundGiveTheRootsBytesFromAnUnrelatedFolder) {
  expect_root_bytes(CLAIMRAG_BINARY, "unrelated");
}

TEST_F(CliAnyFolder, ACachedVerifierIsUsedWhenTheTrainingDataIsNotOnTheMachine) {
  // CLAIMRAG_DATA names an empty folder: SciFact's training files are absent.
  fs::create_directories(folder_ / "no-data");
  expect_root_bytes(CLAIMRAG_BINARY, "without-data", "CLAIMRAG_DATA='" + (folder_ / "no-data").string() + "'");
  // Without the cache too, the error says how to get the data.
  fs::create_directories(folder_ / "empty-cache");
  const int code = run_in(CLAIMRAG_BINARY, verify_pairs(kSource.string() + "/", folder_ / "no-data"), folder_, folder_,
                          "CLAIMRAG_DATA='" + (folder_ / "no-data").string() + "' XDG_CACHE_HOME='" +
                              (folder_ / "empty-cache").string() + "'");
  EXPECT_EQ(code, 2);
  EXPECT_NE(slurp(folder_ / "stderr.txt").find("CLAIMRAG_DATA"), std::string::npos) << slurp(folder_ / "stderr.txt");
}

TEST_F(CliAnyFolder, AnInstalledClaimragFindsItsFilesAndGivesTheSameBytes) {
  const fs::path prefix = folder_ / "prefix";
  const std::string install = "'" + std::string(CLAIMRAG_CMAKE_COMMAND) + "' --install '" + CLAIMRAG_BUILD_FOLDER + "' --prefix '" +
                              prefix.string() + "' > '" + (folder_ / "install.txt").string() + "' 2>&1";
  ASSERT_EQ(std::system(install.c_str()), 0) << slurp(folder_ / "install.txt");
  for (const char* file : {"bin/claimrag", "share/claimrag/configs/scifact.json", "share/claimrag/configs/probes.json",
                           "share/claimrag/configs/prompts/verifier_judge.txt", "share/claimrag/configs/paper/verisci.json",
                           "share/claimrag/tests/regression/scifact.expected.json", "share/doc/claimrag/LICENSE"}) {
    EXPECT_TRUE(fs::is_regular_file(prefix / file)) << file;
  }
  // No SciFact under the prefix: the installed program uses the verifier the suite cached.
  expect_root_bytes(prefix / "bin/claimrag", "installed");
  // Without the data and the cache, its error names no script it does not ship.
  fs::create_directories(folder_ / "installed-no-data");
  fs::create_directories(folder_ / "installed-empty-cache");
  const int refused = run_in(prefix / "bin/claimrag", verify_pairs(kSource.string() + "/", folder_ / "installed-no-data"),
                             folder_, folder_,
                             "CLAIMRAG_DATA='" + (folder_ / "installed-no-data").string() + "' XDG_CACHE_HOME='" +
                                 (folder_ / "installed-empty-cache").string() + "'");
  EXPECT_EQ(refused, 2);
  const std::string refusal = slurp(folder_ / "stderr.txt");
  EXPECT_EQ(refusal.find("get-data.sh"), std::string::npos) << refusal;
  EXPECT_NE(refusal.find("data.tar.gz"), std::string::npos) << refusal;
  // The prompts and probes come from the prefix, not the working folder: interrogate's default
  // --probes is found from an empty folder.
  fs::create_directories(folder_ / "interrogate");
  ASSERT_EQ(run_in(prefix / "bin/claimrag",
                   "interrogate --pairs " + kSource.string() + "/examples/pairs.jsonl --responder builtin --samples 2 --out " +
                       (folder_ / "interrogate/out.jsonl").string(),
                   folder_ / "interrogate", folder_),
            0)
      << slurp(folder_ / "stderr.txt");
}

}  // namespace
