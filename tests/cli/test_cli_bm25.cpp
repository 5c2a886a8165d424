// The binary end to end on data/fixtures/tiny-beir, with expectations derived by hand from the
// fixture (token counts, which documents share words with which claims).

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "support/fixture_paths.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

using claimrag::testing::run_claimrag;
using claimrag::testing::slurp;
using claimrag::testing::TempFolder;

namespace {
using claimrag::testing::kTiny;
}

TEST(CliStats, WritesTable1OfTheFixture) {
  TempFolder folder;
  const auto outcome = run_claimrag("stats --data " + kTiny + " --out " + folder.path().string(), folder.path());
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  // Tokens: d1 5+10, d2 5+9, d3 4+7, d4 3+7, d5 2+9, d6 2+5 = 68 over 6 documents.
  // Test claims q1..q5: 5, 4, 4, 3, 4 tokens = 20 over 5; train claim q6: 5 tokens.
  EXPECT_EQ(slurp(folder.path() / "table1.tsv"),
            "statistic\tvalue\n"
            "corpus documents\t6\n"
            "test claims\t5\n"
            "train claims\t1\n"
            "test pairs\t7\n"
            "train pairs\t1\n"
            "mean document length (tokens)\t11.33\n"
            "mean test claim length (tokens)\t4.00\n"
            "mean train claim length (tokens)\t5.00\n");
  const auto json = nlohmann::json::parse(slurp(folder.path() / "table1.json"));
  EXPECT_DOUBLE_EQ(json["mean_document_tokens"].get<double>(), 68.0 / 6.0);
}

TEST(CliBm25, IndexRetrieveEvaluateOnTheFixture) {
  TempFolder folder;
  const std::string out = folder.path().string();
  ASSERT_EQ(run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path()).exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(folder.path() / "index" / "meta.json"));
  const auto retrieved = run_claimrag("retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split test --k 10 --out " +
                                          out + "/bm25.trec",
                                      folder.path());
  ASSERT_EQ(retrieved.exit_code, 0) << retrieved.err;
  // Each claim shares words only with its own abstract, except q3 ("heart": d1's title too),
  // q4 (d4: exercise, d6: memory) and q5 (only d2; d6 shares nothing with it).
  std::istringstream lines(slurp(folder.path() / "bm25.trec"));
  std::vector<std::string> ranked;
  std::string qid, q0, doc, rank, score, tag;
  while (lines >> qid >> q0 >> doc >> rank >> score >> tag) ranked.push_back(qid + ":" + doc + ":" + rank);
  EXPECT_EQ(ranked, (std::vector<std::string>{"q1:d1:1", "q2:d3:1", "q3:d5:1", "q3:d1:2", "q4:d4:1", "q4:d6:2", "q5:d2:1"}));

  const auto evaluated = run_claimrag("evaluate --data " + kTiny + " --split test --run " + out +
                                          "/bm25.trec --metrics ndcg@1,10,recall@1,10 --out " + out + "/eval",
                                      folder.path());
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  const auto json = nlohmann::json::parse(slurp(folder.path() / "eval.json"));
  // q1..q4 are perfect at 10; q5 finds d2 at rank 1 and misses d6: DCG 1, IDCG 1 + 1/log2(3).
  EXPECT_NEAR(json["metrics"]["ndcg@10"].get<double>(), (4.0 + 1.0 / (1.0 + 1.0 / std::log2(3.0))) / 5.0, 1e-12);
  EXPECT_DOUBLE_EQ(json["metrics"]["ndcg@1"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(json["metrics"]["recall@1"].get<double>(), (1 + 1 + 1 + 0.5 + 0.5) / 5.0);
  EXPECT_DOUBLE_EQ(json["metrics"]["recall@10"].get<double>(), (1 + 1 + 1 + 1 + 0.5) / 5.0);
  EXPECT_EQ(json["queries"].get<int>(), 5);
  EXPECT_NE(slurp(folder.path() / "eval.tsv").find("\nmean\t"), std::string::npos);
}

TEST(CliBm25, SameCommandTwiceGivesByteIdenticalOutputs) {
  TempFolder folder;
  const std::string out = folder.path().string();
  for (const std::string name : {"a", "b"}) {
    ASSERT_EQ(run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/" + name, folder.path()).exit_code, 0);
    ASSERT_EQ(run_claimrag("retrieve --data " + kTiny + " --index " + out + "/" + name + " --method bm25 --split test --out " +
                               out + "/" + name + ".trec",
                           folder.path())
                  .exit_code,
              0);
  }
  EXPECT_EQ(slurp(folder.path() / "a" / "bm25.index"), slurp(folder.path() / "b" / "bm25.index"));
  EXPECT_EQ(slurp(folder.path() / "a.trec"), slurp(folder.path() / "b.trec"));
}

TEST(CliEvaluate, CheckPassesAndFailsWithExitCodes) {
  TempFolder folder;
  const std::string out = folder.path().string();
  run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path());
  run_claimrag("retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split test --out " + out + "/r.trec",
               folder.path());
  folder.write("good.json", R"({"sections": {"bm25": {"recall@10": {"value": 0.9, "tolerance": 1e-12}}}})");
  folder.write("bad.json", R"({"sections": {"bm25": {"recall@10": {"value": 0.95, "tolerance": 0.01}}}})");
  const auto good = run_claimrag("evaluate --data " + kTiny + " --split test --run " + out + "/r.trec --out " + out +
                                     "/e --check " + out + "/good.json",
                                 folder.path());
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("OK   bm25 recall@10 0.9"), std::string::npos) << good.out;
  const auto bad = run_claimrag("evaluate --data " + kTiny + " --split test --run " + out + "/r.trec --out " + out +
                                    "/e --check " + out + "/bad.json",
                                folder.path());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("FAIL bm25 recall@10"), std::string::npos) << bad.out;
}

TEST(CliBadInput, ExitCodesMessagesAndNoPartialOutput) {
  TempFolder folder;
  const std::string out = folder.path().string();
  // A malformed corpus: data error (3), `file:line: reason`, no index written.
  folder.write("broken/corpus.jsonl", "{\"_id\": \"a\", \"text\": \"x\"}\n{\"_id\": \"b\"}\n");
  auto outcome = run_claimrag("index --data " + out + "/broken --method bm25 --out " + out + "/idx", folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("broken/corpus.jsonl:2: \"text\" is missing"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "idx" / "bm25.index"));

  // An unknown split: usage error (2), no run written.
  run_claimrag("index --data " + kTiny + " --method bm25 --out " + out + "/index", folder.path());
  outcome = run_claimrag("retrieve --data " + kTiny + " --index " + out + "/index --method bm25 --split dev --out " + out +
                             "/r.trec",
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("unknown split \"dev\""), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "r.trec"));

  // A missing run file: data error naming it.
  outcome = run_claimrag("evaluate --data " + kTiny + " --split test --run " + out + "/none.trec --out " + out + "/e",
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("none.trec: no such file"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "e.json"));

  // A missing required flag and an unknown method: usage errors.
  EXPECT_EQ(run_claimrag("index --data " + kTiny + " --out " + out + "/x", folder.path()).exit_code, 2);
  EXPECT_EQ(run_claimrag("index --data " + kTiny + " --method magic --out " + out + "/x", folder.path()).exit_code, 2);
  EXPECT_EQ(run_claimrag("frobnicate", folder.path()).exit_code, 2);

  // An index built from another corpus is refused.
  folder.write("other/corpus.jsonl", "{\"_id\": \"z\", \"text\": \"other words\"}\n");
  folder.write("other/queries.jsonl", "{\"_id\": \"q1\", \"text\": \"words\"}\n");
  folder.write("other/qrels/test.tsv", "q1\tz\t1\n");
  outcome = run_claimrag("retrieve --data " + out + "/other --index " + out + "/index --method bm25 --split test --out " + out +
                             "/r.trec",
                         folder.path());
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_NE(outcome.err.find("was built from another corpus"), std::string::npos) << outcome.err;
}

TEST(CliHelp, EverySubcommandAnswersHelp) {
  TempFolder folder;
  for (const std::string command : {"", "stats", "index", "retrieve", "evaluate"}) {
    const auto outcome = run_claimrag(command + " --help", folder.path());
    EXPECT_EQ(outcome.exit_code, 0) << command;
    EXPECT_NE(outcome.out.find("--"), std::string::npos) << command;
  }
}
