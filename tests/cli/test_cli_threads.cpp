// --threads N changes the wall time and nothing else: every output byte-identical for 1 and 2.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

using claimrag::testing::kTiny;

void expect_success(const std::string& arguments, const TempFolder& folder) {
  const auto outcome = run_claimrag("--quiet " + arguments, folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << arguments << "\n" << outcome.err;
}

}  // namespace

TEST(CliThreads, OutputsAreByteIdenticalForOneAndTwoThreads) {
  TempFolder folder;
  const std::string out = folder.path().string();
  expect_success("index --data " + kTiny + " --method bm25 --out " + out + "/bm25", folder);
  expect_success("retrieve --data " + kTiny + " --index " + out + "/bm25 --method bm25 --split test --out " + out + "/bm25.trec",
                 folder);
  for (const std::string threads : {"1", "2"}) {
    const std::string t = out + "/t" + threads;
    const std::string flag = " --threads " + threads;
    expect_success("index --data " + kTiny + " --method dense --out " + t + "/dense" + flag, folder);
    expect_success("retrieve --data " + kTiny + " --index " + t + "/dense --method dense --split test --out " + t + "/dense.trec" + flag,
                   folder);
    expect_success("rerank --data " + kTiny + " --index " + out + "/bm25 --run " + out + "/bm25.trec --train --model " + t +
                       "/reranker.safetensors --out " + t + "/reranked.trec" + flag,
                   folder);
    expect_success("extract-evidence --data " + kTiny + " --run " + out + "/bm25.trec --out " + t + "/evidence.jsonl --save-model " +
                       t + "/verifier.safetensors" + flag,
                   folder);
  }
  for (const std::string file : {"dense/dense.safetensors", "dense/dense-documents.safetensors", "dense.trec",
                                 "reranker.safetensors", "reranked.trec", "evidence.jsonl", "verifier.safetensors"}) {
    const std::string one = slurp(folder.path() / "t1" / file);
    EXPECT_FALSE(one.empty()) << file;
    EXPECT_EQ(one, slurp(folder.path() / "t2" / file)) << file << " differs between --threads 1 and 2";
  }
}

TEST(CliThreads, ZeroThreadsIsAUsageError) {
  TempFolder folder;
  const auto outcome = run_claimrag("index --data " + kTiny + " --method bm25 --out " + folder.path().string() + "/i --threads 0",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--threads"), std::string::npos) << outcome.err;
}

TEST(CliThreads, AHugeOmpNumThreadsIsCappedAsThreadsIs) {
  TempFolder folder;
  const std::string out = folder.path().string();
  ::setenv("OMP_NUM_THREADS", "100000", 1);  // each test runs in its own process (ctest)
  const auto outcome = run_claimrag("index --data " + kTiny + " --method dense --out " + out + "/dense", folder.path());
  ::unsetenv("OMP_NUM_THREADS");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("OMP_NUM_THREADS=100000 is more than 1024 threads: using 1024"), std::string::npos) << outcome.err;
  ASSERT_EQ(run_claimrag("--quiet index --data " + kTiny + " --method dense --out " + out + "/dense1 --threads 1", folder.path()).exit_code, 0);
  EXPECT_EQ(slurp(folder.path() / "dense/dense.safetensors"), slurp(folder.path() / "dense1/dense.safetensors"));
}

// Idle OpenMP threads spin briefly before they sleep unless the user says otherwise: claimrag
// starts itself again with GOMP_SPINCOUNT set, and a user's own setting is kept as it is.
TEST(CliThreads, IdleThreadsSpinBrieflyUnlessTheEnvironmentSaysOtherwise) {
  TempFolder folder;
  const std::string arguments = "--verbose stats --data " + std::string(CLAIMRAG_SOURCE_DIR) + "/" + kTiny + " --out " +
                                folder.path().string() + "/stats";
  ::unsetenv("GOMP_SPINCOUNT");  // each test runs in its own process (ctest)
  ::unsetenv("OMP_WAIT_POLICY");
  // Started from another folder than the repository, as a user would: the restart finds itself.
  auto outcome = run_claimrag(arguments, folder.path(), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("idle threads: GOMP_SPINCOUNT=1000"), std::string::npos) << outcome.err;

  ::setenv("GOMP_SPINCOUNT", "20", 1);
  outcome = run_claimrag(arguments + "2", folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("idle threads: GOMP_SPINCOUNT=20"), std::string::npos) << outcome.err;
  ::unsetenv("GOMP_SPINCOUNT");

  ::setenv("OMP_WAIT_POLICY", "passive", 1);
  outcome = run_claimrag(arguments + "3", folder.path());
  ::unsetenv("OMP_WAIT_POLICY");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("idle threads: OMP_WAIT_POLICY=passive"), std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.err.find("GOMP_SPINCOUNT"), std::string::npos) << outcome.err;
}
