#include <gtest/gtest.h>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {
using claimrag::testing::kTiny;

std::string written_bm25_run(const TempFolder& folder) {
  const std::string out = folder.path().string();
  run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path());
  run_claimrag("retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split test --out " + out + "/bm25.trec",
               folder.path());
  return out + "/bm25.trec";
}
}  // namespace

TEST(CliGate, SweepDecisionsAndRiskCoverageOnTheFixture) {
  TempFolder folder;
  const std::string run = written_bm25_run(folder);
  const std::string out = folder.path().string();
  // Every fixture claim has a relevant document at rank 1, so nothing answered hallucinates.
  // The top-1 scores are 7.96 (q1), 6.41 (q2), 4.74 (q3), 2.19 (q4), 3.97 (q5).
  const auto outcome = run_claimrag("gate --data " + kTiny + " --split test --run " + run + " --bm25-run " + run +
                                        " --signal bm25_top1 --thresholds 4,100 --out " + out + "/sweep.tsv --risk-coverage " +
                                        out + "/rc.tsv",
                                    folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(slurp(folder.path() / "sweep.tsv"),
            "signal\tthreshold\tanswered\tanswer_rate\trefusal_rate\thallucination_rate\tevidence_f1\n"
            "bm25_top1\t4.000000\t3\t0.600000\t0.400000\t0.000000\t0.000000\n"
            "bm25_top1\t100.000000\t0\t0.000000\t1.000000\t0.000000\t0.000000\n");
  EXPECT_EQ(slurp(folder.path() / "rc.tsv"),
            "signal\taurc\trisk@30%\trisk@50%\trisk@70%\tcoverage@risk5%\tcoverage@risk10%\n"
            "bm25_top1\t0.000000\t0.000000\t0.000000\t0.000000\t1.000000\t1.000000\n");

  const auto decided = run_claimrag("gate --data " + kTiny + " --split test --run " + run + " --bm25-run " + run +
                                        " --signal bm25_top1 --thresholds 5 --decisions " + out + "/d.jsonl",
                                    folder.path());
  ASSERT_EQ(decided.exit_code, 0) << decided.err;
  const std::string decisions = slurp(folder.path() / "d.jsonl");
  EXPECT_NE(decisions.find(R"("claim_id":"q1","decision":"answer")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"("claim_id":"q4","decision":"refuse")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find("bm25_top1 2.190595 < threshold 5.000000"), std::string::npos) << decisions;
}

TEST(CliGate, BadThresholdsAndMissingInputsAreUsageErrors) {
  TempFolder folder;
  const std::string run = written_bm25_run(folder);
  const std::string out = folder.path().string();
  const std::string base = "gate --data " + kTiny + " --split test --run " + run + " --bm25-run " + run + " --out " + out + "/s.tsv ";
  auto outcome = run_claimrag(base + "--signal bm25_top1 --thresholds 40:10:5", folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("reversed"), std::string::npos) << outcome.err;
  EXPECT_EQ(run_claimrag(base + "--signal bm25_top1 --thresholds 10:40:0", folder.path()).exit_code, 2);
  outcome = run_claimrag(base + "--signal rerank_top1 --thresholds 1", folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("needs --rerank-run"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "s.tsv"));
  // Claims without lines in the runs retrieved nothing: signal 0 from the BM25 run, and refused
  // whatever the threshold when the system run is the one without them.
  folder.write("partial.trec", "q1 Q0 d1 1 3 bm25\n");
  outcome = run_claimrag("gate --data " + kTiny + " --split test --run " + out + "/partial.trec --bm25-run " + out +
                             "/partial.trec --signal bm25_top1 --thresholds 0 --decisions " + out + "/d.jsonl",
                         folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string decisions = slurp(folder.path() / "d.jsonl");
  EXPECT_NE(decisions.find(R"({"claim_id":"q1","decision":"answer")"), std::string::npos) << decisions;
  EXPECT_NE(decisions.find(R"({"claim_id":"q2","decision":"refuse","reason":"no document retrieved")"), std::string::npos)
      << decisions;
}

// A signal file without a value for some claim of the split: a data error naming the file and the
// claim, and no sweep written.
TEST(CliGate, ASignalFileMissingAClaimIsNamed) {
  TempFolder folder;
  const std::string run = written_bm25_run(folder);
  const auto signals = folder.write("signals.tsv", "claim_id\tvalue\nq1\t0.9\nq2\t0.1\n");
  const auto outcome = run_claimrag("gate --data " + kTiny + " --split test --run " + run + " --signal file --signal-file " +
                                        signals.string() + " --thresholds 0.5 --out " + folder.path().string() + "/sweep.tsv",
                                    folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find(signals.string() + ": has no value for claim q3 (and 2 more claims of split test)"),
            std::string::npos)
      << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "sweep.tsv"));
}
