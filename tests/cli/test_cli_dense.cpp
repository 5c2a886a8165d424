#include <gtest/gtest.h>

#include <algorithm>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {
using claimrag::testing::kTiny;
}

TEST(CliDense, TrainsDeterministicallyAndRetrievesEveryDocument) {
  TempFolder folder;
  const std::string out = folder.path().string();
  for (const std::string name : {"a", "b"}) {
    const auto outcome = run_claimrag("--quiet index --config configs/scifact.json --data " + kTiny + " --method dense --out " + out + "/" + name, folder.path());
    ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
    EXPECT_TRUE(outcome.err.empty()) << "--quiet hides the epoch lines: " << outcome.err;
  }
  EXPECT_EQ(slurp(folder.path() / "a" / "dense.safetensors"), slurp(folder.path() / "b" / "dense.safetensors"));
  EXPECT_EQ(slurp(folder.path() / "a" / "dense-documents.safetensors"), slurp(folder.path() / "b" / "dense-documents.safetensors"));
  const auto retrieved = run_claimrag("retrieve --data " + kTiny + " --index " + out + "/a --method dense --split test --out " + out +
                                          "/dense.trec",
                                      folder.path());
  ASSERT_EQ(retrieved.exit_code, 0) << retrieved.err;
  // Dense retrieval scores every document: 5 test claims × 6 documents.
  const std::string run = slurp(folder.path() / "dense.trec");
  EXPECT_EQ(std::count(run.begin(), run.end(), '\n'), 30);
  EXPECT_NE(run.find(" dense\n"), std::string::npos);
}

TEST(CliDense, AModelTrainedWithOtherOptionsIsRefused) {
  TempFolder folder;
  const std::string out = folder.path().string();
  ASSERT_EQ(run_claimrag("--quiet index --data " + kTiny + " --method dense --out " + out + "/m", folder.path()).exit_code, 0);
  folder.write("other.json", R"({"dense": {"dimension": 64}})");
  const auto outcome = run_claimrag("retrieve --data " + kTiny + " --index " + out + "/m --method dense --split test --config " + out +
                                        "/other.json --out " + out + "/r.trec",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("dense.safetensors"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "r.trec"));
}
