#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/fusion_stage.hpp"
#include "claimrag/fusion/rrf.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using fusion::NamedRun;
using fusion::RrfOptions;

namespace {

// A run whose rankings list the given documents best first, with scores n, n-1, ... 1.
run::Run make_run(const std::string& tag, const std::vector<std::pair<std::string, std::vector<std::string>>>& queries) {
  run::Run result;
  result.tag = tag;
  for (const auto& [query, documents] : queries) {
    run::Ranking ranking{query, {}};
    for (std::size_t i = 0; i < documents.size(); ++i) {
      ranking.documents.push_back({documents[i], static_cast<double>(documents.size() - i)});
    }
    result.add(std::move(ranking));
  }
  return result;
}

std::vector<std::string> ids(const run::Ranking& ranking) {
  std::vector<std::string> result;
  for (const auto& document : ranking.documents) result.push_back(document.doc_id);
  return result;
}

run::Run fuse(const std::vector<const run::Run*>& runs, const RrfOptions& options = {}) {
  std::vector<NamedRun> named;
  for (std::size_t r = 0; r < runs.size(); ++r) named.push_back({runs[r], "run" + std::to_string(r)});
  return fusion::reciprocal_rank_fusion(named, options);
}

}  // namespace

TEST(Fusion, TwoTinyRunsByHand) {
  const auto a = make_run("bm25", {{"q1", {"a", "b", "c"}}});
  const auto b = make_run("dense", {{"q1", {"b", "d", "a"}}});
  const auto fused = fuse({&a, &b});
  ASSERT_EQ(fused.rankings.size(), 1u);
  const auto& ranking = fused.rankings[0];
  // b: ranks 1 and 2, a: ranks 1 and 3, d: rank 2, c: rank 3.
  EXPECT_EQ(ids(ranking), (std::vector<std::string>{"b", "a", "d", "c"}));
  EXPECT_EQ(ranking.documents[0].score, 1.0 / 61 + 1.0 / 62);
  EXPECT_EQ(ranking.documents[1].score, 1.0 / 61 + 1.0 / 63);
  EXPECT_EQ(ranking.documents[2].score, 1.0 / 62);
  EXPECT_EQ(ranking.documents[3].score, 1.0 / 63);
  EXPECT_EQ(fused.tag, "hybrid");
}

TEST(Fusion, OtherKAndTag) {
  const auto a = make_run("x", {{"q1", {"a", "b"}}});
  const auto b = make_run("y", {{"q1", {"c", "b"}}});
  RrfOptions options;
  options.k = 1;
  options.tag = "fused";
  const auto fused = fuse({&a, &b}, options);
  // b: 1/3 + 1/3 = 2/3 beats a and c at 1/2 each; a and c tie on score and best rank: id order.
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(fused.rankings[0].documents[0].score, 1.0 / 3 + 1.0 / 3);
  EXPECT_EQ(fused.rankings[0].documents[1].score, 0.5);
  EXPECT_EQ(fused.tag, "fused");
}

TEST(Fusion, DepthTruncatesInputsAndOutput) {
  const auto a = make_run("x", {{"q1", {"a", "b", "c"}}});
  const auto b = make_run("y", {{"q1", {"c", "d", "e"}}});
  RrfOptions options;
  options.depth = 2;
  const auto fused = fuse({&a, &b}, options);
  // Inputs cut to {a, b} and {c, d}: c's rank 3 in the first run no longer counts.
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"a", "c"}));
  EXPECT_EQ(fused.rankings[0].documents[1].score, 1.0 / 61);
}

TEST(Fusion, TiesGoToTheBetterBestRankThenToTheSmallerId) {
  // k = 0: z1 and b1 score 1 (rank 1 once), a1 scores 1/2 + 1/2 = 1 (rank 2 twice).
  const auto a = make_run("x", {{"q", {"z1", "a1"}}});
  const auto b = make_run("y", {{"q", {"b1", "a1"}}});
  RrfOptions options;
  options.k = 0;
  const auto fused = fuse({&a, &b}, options);
  const auto& documents = fused.rankings[0].documents;
  ASSERT_EQ(documents.size(), 3u);
  EXPECT_EQ(documents[0].score, 1.0);
  EXPECT_EQ(documents[1].score, 1.0);
  EXPECT_EQ(documents[2].score, 1.0);
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"b1", "z1", "a1"}));
}

TEST(Fusion, SwappedRanksGiveBitIdenticalScores) {
  const auto a = make_run("x", {{"q", {"y", "x"}}});
  const auto b = make_run("y", {{"q", {"x", "y"}}});
  const auto fused = fuse({&a, &b});
  EXPECT_EQ(fused.rankings[0].documents[0].score, fused.rankings[0].documents[1].score);
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"x", "y"}));
}

TEST(Fusion, DoesNotDependOnTheOrderOfTheRuns) {
  const auto a = make_run("a", {{"q1", {"d1", "d2", "d3", "d4"}}, {"q2", {"e1", "e2"}}});
  const auto b = make_run("b", {{"q1", {"d4", "d1", "d5"}}, {"q2", {"e2", "e3"}}});
  const auto c = make_run("c", {{"q1", {"d3", "d5", "d2", "d1"}}, {"q2", {"e3", "e1"}}});
  const auto abc = fuse({&a, &b, &c});
  const auto cab = fuse({&c, &a, &b});
  const auto bca = fuse({&b, &c, &a});
  for (const auto* other : {&cab, &bca}) {
    for (const auto& ranking : abc.rankings) {
      const auto* same = other->find(ranking.query_id);
      ASSERT_NE(same, nullptr);
      ASSERT_EQ(same->documents.size(), ranking.documents.size());
      for (std::size_t i = 0; i < ranking.documents.size(); ++i) {
        EXPECT_EQ(same->documents[i].doc_id, ranking.documents[i].doc_id);
        EXPECT_EQ(same->documents[i].score, ranking.documents[i].score);
      }
    }
  }
  // Output queries follow the first run.
  EXPECT_EQ(abc.rankings[0].query_id, "q1");
}

TEST(Fusion, ThreeRunsSumInRankOrder) {
  // d sits at ranks 1, 3 and 7. Summed in that order the score is (1/61 + 1/63) + 1/67; summed
  // as (1/61 + 1/67) + 1/63 it would be one ulp lower, so every run order must give the former.
  const auto a = make_run("a", {{"q", {"d"}}});
  const auto b = make_run("b", {{"q", {"x", "y", "d"}}});
  const auto c = make_run("c", {{"q", {"x", "p1", "p2", "p3", "p4", "p5", "d"}}});
  const double expected = (1.0 / 61 + 1.0 / 63) + 1.0 / 67;
  ASSERT_NE(expected, (1.0 / 61 + 1.0 / 67) + 1.0 / 63);
  const std::vector<std::vector<const run::Run*>> orders = {{&a, &b, &c}, {&a, &c, &b}, {&b, &a, &c},
                                                            {&b, &c, &a}, {&c, &a, &b}, {&c, &b, &a}};
  for (const auto& order : orders) {
    const auto fused = fuse(order);
    const auto& ranking = fused.rankings[0];
    EXPECT_EQ(ranking.documents[0].doc_id, "d");
    EXPECT_EQ(ranking.documents[0].score, expected);
    EXPECT_EQ(ranking.documents[1].doc_id, "x");
    EXPECT_EQ(ranking.documents[1].score, 2.0 / 61);
  }
}

// A run file cannot hold an empty ranking: a query absent from a run retrieved nothing there.
TEST(Fusion, AQueryAbsentFromARunIsAnEmptyRankingThere) {
  const auto a = make_run("a", {{"q1", {"d", "e"}}, {"q2", {"d"}}});
  const auto b = make_run("b", {{"q1", {"e"}}, {"q3", {"f", "g"}}});
  const auto fused = fuse({&a, &b});
  ASSERT_EQ(fused.rankings.size(), 3u);  // a's queries in its order, then b's new one
  EXPECT_EQ(fused.rankings[0].query_id, "q1");
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"e", "d"}));  // e: 1/62 + 1/61
  EXPECT_EQ(fused.rankings[0].documents[0].score, 1.0 / 62 + 1.0 / 61);
  EXPECT_EQ(fused.rankings[1].query_id, "q2");
  EXPECT_EQ(ids(fused.rankings[1]), (std::vector<std::string>{"d"}));  // from a alone
  EXPECT_EQ(fused.rankings[1].documents[0].score, 1.0 / 61);
  EXPECT_EQ(fused.rankings[2].query_id, "q3");
  EXPECT_EQ(ids(fused.rankings[2]), (std::vector<std::string>{"f", "g"}));
  EXPECT_EQ(fused.rankings[2].documents[1].score, 1.0 / 62);
}

TEST(Fusion, BadOptionsAndInputsAreRefused) {
  const auto a = make_run("a", {{"q1", {"d"}}});
  const auto b = make_run("b", {{"q1", {"d"}}});
  EXPECT_THROW(fuse({&a}), UsageError);
  EXPECT_THROW(fuse({}), UsageError);
  RrfOptions negative;
  negative.k = -1;
  EXPECT_THROW(fuse({&a, &b}, negative), UsageError);
  RrfOptions no_depth;
  no_depth.depth = 0;
  EXPECT_THROW(fuse({&a, &b}, no_depth), UsageError);
  RrfOptions bad_tag;
  bad_tag.tag = "two words";
  EXPECT_THROW(fuse({&a, &b}, bad_tag), UsageError);
  // A run built in code that ranks one document twice breaks the run invariant.
  run::Run twice;
  twice.tag = "t";
  twice.add({"q1", {{"d", 2.0}, {"d", 1.0}}});
  EXPECT_THROW(fuse({&a, &twice}), InternalError);
}

TEST(FusionStage, FusesFilesAndNamesABadOne) {
  const auto folder = claimrag::testing::unique_temp_path("claimrag_test_fusion_stage");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const auto a = make_run("a", {{"q1", {"a", "b", "c"}}});
  const auto b = make_run("b", {{"q1", {"b", "d", "a"}}});
  run::write_trec_run(a, folder / "a.trec");
  run::write_trec_run(b, folder / "b.trec");
  const auto fused = experiment::fuse_run_files({folder / "a.trec", folder / "b.trec"}, {});
  EXPECT_EQ(ids(fused.rankings[0]), (std::vector<std::string>{"b", "a", "d", "c"}));
  run::write_trec_run(fused, folder / "fused.trec");
  const auto read_back = run::read_trec_run(folder / "fused.trec");
  EXPECT_EQ(read_back.rankings[0].documents[1].score, 1.0 / 61 + 1.0 / 63);

  EXPECT_THROW(experiment::fuse_run_files({folder / "a.trec"}, {}), UsageError);
  std::ofstream(folder / "bad.trec") << "q1 Q0 a one 1.0 x\n";
  try {
    experiment::fuse_run_files({folder / "a.trec", folder / "bad.trec"}, {});
    FAIL() << "expected a DataError";
  } catch (const DataError& error) {
    EXPECT_NE(std::string(error.what()).find("bad.trec:1:"), std::string::npos) << error.what();
  }
  std::filesystem::remove_all(folder);
}
