#include <gtest/gtest.h>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

TEST(CliReproduce, AFinishedReproductionIsNotReplacedWithoutForce) {
  TempFolder folder;
  folder.write("done/results.json", "{\"metrics\": {}}\n");
  folder.write("done/.claimrag-reproduction", "{\"state\": \"finished\", \"pid\": 0}\n");
  folder.write("done/tables/table1.tsv", "kept\n");
  const auto outcome = run_claimrag("reproduce --config configs/scifact.json --out " + (folder.path() / "done").string(), folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("already holds a reproduction: pass --force"), std::string::npos) << outcome.err;
  EXPECT_EQ(slurp(folder.path() / "done" / "tables" / "table1.tsv"), "kept\n");
}

TEST(CliReproduce, AFolderClaimragDidNotWriteIsKeptEvenWithForce) {
  TempFolder folder;
  folder.write("mine/notes.txt", "kept\n");
  const auto outcome =
      run_claimrag("reproduce --config configs/scifact.json --force --out " + (folder.path() / "mine").string() + "/", folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("was not written by claimrag"), std::string::npos) << outcome.err;
  EXPECT_EQ(slurp(folder.path() / "mine" / "notes.txt"), "kept\n");
}

TEST(CliReproduce, ConfigurationErrorsNameTheKey) {
  TempFolder folder;
  folder.write("typo.json", R"({"dense": {"epochz": 3}})");
  auto outcome = run_claimrag("reproduce --config " + (folder.path() / "typo.json").string() + " --out " +
                                  (folder.path() / "out").string(),
                              folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("\"dense.epochz\" is not a known key"), std::string::npos) << outcome.err;
  folder.write("type.json", R"({"gate": {"thresholds": 10}})");
  outcome = run_claimrag("reproduce --config " + (folder.path() / "type.json").string() + " --out " + (folder.path() / "out").string(),
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("\"gate.thresholds\" must be a string"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "out"));
}
