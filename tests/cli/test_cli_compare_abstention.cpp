// claimrag compare-abstention end to end on hand-made claims tables: the comparison's files, numbers
// computed by hand, refusals with their exit codes, nothing written on failure, same bytes twice.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {

// Six claims; "gate" ranks the unsafe ones first, "judge" the safe ones first; claim 6 has no answer.
const std::string kTest =
    "claim_id\tanswered\tunsafe\tgate\tjudge\n"
    "1\t1\t0\t1\t0.9\n"
    "2\t1\t1\t5\t0.2\n"
    "3\t1\t0\t2\t0.8\n"
    "4\t1\t1\t4\t0.1\n"
    "5\t1\t1\t3\t0.3\n"
    "6\t0\t1\t9\t0.95\n";

std::string command(const std::filesystem::path& test, const std::filesystem::path& out, const std::string& more = "") {
  return "compare-abstention --config configs/scifact.json --reference gate --resamples 200 --test " + test.string() + " --out " +
         out.string() + more;
}

}  // namespace

TEST(CliCompareAbstention, WritesTheComparisonWithTheOracleFloor) {
  TempFolder folder;
  const auto test = folder.write("test.tsv", kTest);
  const auto out = folder.path() / "out";
  const auto outcome = run_claimrag(command(test, out), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* file : {"abstention.tsv", "abstention_curves.tsv", "abstention_operating_points.tsv", "abstention.json"}) {
    EXPECT_TRUE(std::filesystem::exists(out / file)) << file;
  }
  const auto json = nlohmann::json::parse(slurp(out / "abstention.json"));
  const auto& sections = json.at("sections");
  // judge answers 1 (safe), 3 (safe), 5, 2, 4, then 6 (no answer): risks 0, 0, 1/3, 2/4, 3/5, 4/6.
  const double judge = (0 + 0 + 1.0 / 3 + 2.0 / 4 + 3.0 / 5 + 4.0 / 6) / 6;
  EXPECT_DOUBLE_EQ(sections.at("abstention_judge").at("aurc").get<double>(), judge);
  EXPECT_DOUBLE_EQ(sections.at("abstention_oracle").at("aurc").get<double>(), judge);  // judge is perfect here
  // gate answers 2, 4, 5 (unsafe), 3, 1, then 6: risks 1, 1, 1, 3/4, 3/5, 4/6.
  EXPECT_DOUBLE_EQ(sections.at("abstention_gate").at("aurc").get<double>(), (1 + 1 + 1 + 3.0 / 4 + 3.0 / 5 + 4.0 / 6) / 6);
  EXPECT_DOUBLE_EQ(sections.at("abstention_judge").at("risk_at_30_difference").get<double>(), -1.0);  // 2 answered: 0 vs 1
  EXPECT_EQ(sections.at("abstention").at("unsafe").get<double>(), 4.0);
  EXPECT_EQ(sections.at("abstention").at("answered").get<double>(), 5.0);
  // stdout: the header and one line per strategy and the oracle.
  EXPECT_NE(outcome.out.find("judge\t"), std::string::npos);
  EXPECT_NE(outcome.out.find("oracle\t"), std::string::npos);
  // The curves: a row per claim.
  const std::string curves = slurp(out / "abstention_curves.tsv");
  EXPECT_EQ(std::count(curves.begin(), curves.end(), '\n'), 7);
  EXPECT_EQ(curves.substr(0, curves.find('\n')), "coverage\tgate\tjudge\toracle");

  // Same inputs, same bytes.
  const auto again = folder.path() / "again";
  ASSERT_EQ(run_claimrag(command(test, again), folder.path()).exit_code, 0);
  for (const char* file : {"abstention.tsv", "abstention_curves.tsv", "abstention.json"}) EXPECT_EQ(slurp(out / file), slurp(again / file));
}

TEST(CliCompareAbstention, OperatingPointsAndTheStackedStrategyComeFromTheTrainingTable) {
  TempFolder folder;
  const auto test = folder.write("test.tsv", kTest);
  std::string train_rows = "claim_id\tanswered\tunsafe\tgate\tjudge\n";
  for (int c = 0; c < 30; ++c) {
    const bool unsafe = c % 3 == 0;
    train_rows += "t" + std::to_string(c) + "\t1\t" + (unsafe ? "1" : "0") + "\t" + std::to_string(c % 7) + "\t" +
                  (unsafe ? "0." : "1.") + std::to_string(c % 10) + "\n";
  }
  const auto train = folder.write("train.tsv", train_rows);
  const auto out = folder.path() / "out";
  const auto outcome = run_claimrag(command(test, out, " --train " + train.string()), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string points = slurp(out / "abstention_operating_points.tsv");
  // judge ranks train's 20 safe claims (1.0-1.9) above its 10 unsafe ones (0.0-0.9): the largest
  // coverage with risk <= 0.05 takes one unsafe claim too, 0.9 (risk 1/21 = 0.0476, coverage 21/30);
  // on test, 0.9 answers claim 1 only (claim 6 has no answer): 1 of 6, risk 0.
  EXPECT_NE(points.find("judge\trisk_0.05\t0.900000\t0.7000\t0.0476\t1\t0.1667\t0.0000"), std::string::npos) << points;
  // Coverage 0.30 on train wants 9 claims: the ninth highest judge value is 1.5.
  EXPECT_NE(points.find("judge\tcoverage_0.30\t1.500000\t0.3333\t0.0000\t0\t0.0000\t0.0000"), std::string::npos) << points;
  EXPECT_NE(outcome.out.find("stacked\t"), std::string::npos);
  const auto json = nlohmann::json::parse(slurp(out / "abstention.json"));
  EXPECT_TRUE(json.at("sections").contains("abstention_stacked"));
}

TEST(CliCompareAbstention, BadInputNamesFileAndLineAndWritesNothing) {
  TempFolder folder;
  const auto out = folder.path() / "out";
  const auto bad = folder.write("bad.tsv", "claim_id\tanswered\tunsafe\tgate\n1\t1\t0\t0.5\n2\t1\tmaybe\t0.4\n");
  auto outcome = run_claimrag(command(bad, out), folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("bad.tsv:3: unsafe must be 0 or 1"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto test = folder.write("test.tsv", kTest);
  outcome = run_claimrag("compare-abstention --config configs/scifact.json --reference nothing --test " + test.string() + " --out " +
                             out.string(),
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("the reference \"nothing\" is not a strategy"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto other = folder.write("other.tsv", "claim_id\tanswered\tunsafe\tgate\n1\t1\t0\t0.5\n");
  outcome = run_claimrag(command(test, out, " --train " + other.string()), folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("strategy columns differ"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}
