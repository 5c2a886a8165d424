#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/run/run.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

TEST(TrecRun, WriteThenReadGivesTheSameRun) {
  TempFolder folder;
  run::Run written;
  written.tag = "bm25";
  written.add({"q2", {{"d9", 3.25}, {"d1", 0.1}, {"d3", 0.1}}});
  written.add({"q1", {{"d1", 1.0 / 3.0}}});
  run::write_trec_run(written, folder.path() / "r.trec");
  EXPECT_EQ(io::read_file(folder.path() / "r.trec"),
            "q2 Q0 d9 1 3.25 bm25\nq2 Q0 d1 2 0.1 bm25\nq2 Q0 d3 3 0.1 bm25\nq1 Q0 d1 1 0.3333333333333333 bm25\n");
  const auto read = run::read_trec_run(folder.path() / "r.trec");
  EXPECT_EQ(read.tag, "bm25");
  ASSERT_EQ(read.rankings.size(), 2u);
  EXPECT_EQ(read.rankings[0].query_id, "q2");
  ASSERT_NE(read.find("q1"), nullptr);
  EXPECT_EQ(read.find("q1")->documents[0].score, 1.0 / 3.0);  // shortest form round-trips exactly
  EXPECT_EQ(read.find("q2")->documents[2].doc_id, "d3");       // the tie keeps its written order
  EXPECT_EQ(read.find("zz"), nullptr);
}

TEST(TrecRun, ReadSortsByRankAndAcceptsTabsAndCrlf) {
  TempFolder folder;
  const auto path = folder.write("r.trec", "q1 Q0 b 2 1.0 t\r\nq1\tQ0\ta\t1\t2.0\tt\r\n");
  const auto run = run::read_trec_run(path);
  ASSERT_EQ(run.rankings[0].documents.size(), 2u);
  EXPECT_EQ(run.rankings[0].documents[0].doc_id, "a");
}

TEST(TrecRun, AQuerysLinesMayBeSpreadOverTheFile) {
  TempFolder folder;
  const auto path = folder.write("r.trec",
                                 "q1 Q0 a 1 3.0 t\nq2 Q0 c 2 1.0 t\nq1 Q0 b 2 2.0 t\nq2 Q0 d 1 4.0 t\nq1 Q0 e 3 1.0 t\n");
  const auto run = run::read_trec_run(path);
  ASSERT_EQ(run.rankings.size(), 2u);
  EXPECT_EQ(run.rankings[0].query_id, "q1");  // queries in the order they first appear
  ASSERT_EQ(run.find("q1")->documents.size(), 3u);
  EXPECT_EQ(run.find("q1")->documents[1].doc_id, "b");
  EXPECT_EQ(run.find("q1")->documents[2].doc_id, "e");
  ASSERT_EQ(run.find("q2")->documents.size(), 2u);
  EXPECT_EQ(run.find("q2")->documents[0].doc_id, "d");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("g", "q1 Q0 a 1 3 t\nq2 Q0 a 1 3 t\nq1 Q0 a 2 2 t\n")); },
                          "g:3: document a appears twice for query q1 (first on line 1)");
}

TEST(TrecRun, RefusesMalformedLinesNamingFileAndLine) {
  TempFolder folder;
  expect_error<DataError>([&] { run::read_trec_run(folder.write("a", "q1 Q0 d1 1 0.5\n")); }, "a:1: expected 6 fields");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("b", "q1 Q0 d1 0 0.5 t\n")); }, "b:1: rank \"0\"");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("c", "q1 Q0 d1 1 nan t\n")); }, "c:1: score \"nan\"");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("d", "q1 Q0 d1 1 2 t\nq1 Q0 d1 2 1 t\n")); },
                          "d:2: document d1 appears twice for query q1 (first on line 1)");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("e", "q1 Q0 d1 1 2 t\nq1 Q0 d2 1 1 t\n")); },
                          "rank 1 is given twice for query q1");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("f", "q1 Q0 d1 1 1 t\nq1 Q0 d2 2 5 t\n")); },
                          "f:2: score rises with rank");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("g", "q1 Q0 d1 1 1 t\nq2 Q0 d2 1 1 u\n")); },
                          "g:2: tag \"u\" differs");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("h", "\n")); }, "h: the run file is empty");
  expect_error<DataError>([&] { run::read_trec_run(folder.path() / "none"); }, "none: no such file");
}

// Several problems in one query: the one met first going down the ranks is reported, a repeated
// document before a repeated rank or a rising score on the same line.
TEST(TrecRun, ReportsAQuerysFirstProblemInRankOrder) {
  TempFolder folder;
  expect_error<DataError>([&] { run::read_trec_run(folder.write("a", "q Q0 a 1 5 t\nq Q0 b 1 4 t\nq Q0 a 3 3 t\n")); },
                          "a:2: rank 1 is given twice for query q");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("b", "q Q0 a 1 5 t\nq Q0 a 2 4 t\nq Q0 c 3 9 t\n")); },
                          "b:2: document a appears twice for query q (first on line 1)");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("c", "q Q0 a 1 5 t\nq Q0 b 2 6 t\nq Q0 a 3 3 t\n")); },
                          "c:2: score rises with rank");
  expect_error<DataError>([&] { run::read_trec_run(folder.write("d", "q Q0 a 1 5 t\nq Q0 a 2 6 t\n")); },
                          "d:2: document a appears twice for query q (first on line 1)");
}

// A long ranking (the repeat table grows past its first size) with one document listed again
// near its end, and lines out of rank order: the repeat is found at its rank, not its line.
TEST(TrecRun, FindsARepeatedDocumentInALongRanking) {
  TempFolder folder;
  std::string lines;
  for (int rank = 1000; rank >= 1; --rank) {
    const int document = rank == 998 ? 17 : rank;
    lines += "q Q0 d" + std::to_string(document) + " " + std::to_string(rank) + " " + std::to_string(2000 - rank) + " t\n";
  }
  expect_error<DataError>([&] { run::read_trec_run(folder.write("long", lines)); },
                          "long:3: document d17 appears twice for query q (first on line 984)");
  std::string distinct;
  for (int rank = 1; rank <= 1000; ++rank) distinct += "q Q0 d" + std::to_string(rank) + " " + std::to_string(rank) + " 1 t\n";
  const auto run = run::read_trec_run(folder.write("distinct", distinct));
  ASSERT_EQ(run.find("q")->documents.size(), 1000u);
  EXPECT_EQ(run.find("q")->documents[999].doc_id, "d1000");
}

TEST(TrecRun, ReadingSeveralRunsKeepsTheirOrderAndReportsTheFirstFailingFile) {
  TempFolder folder;
  const auto a = folder.write("a.trec", "q1 Q0 d1 1 2 a\n");
  const auto b = folder.write("b.trec", "q1 Q0 d2 1 3 b\nq2 Q0 d1 1 1 b\n");
  const auto runs = run::read_trec_runs({b, a, b});
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].tag, "b");
  EXPECT_EQ(runs[1].tag, "a");
  EXPECT_EQ(runs[2].rankings.size(), 2u);
  const auto bad = folder.write("bad.trec", "q1 Q0 d1 1 x t\n");
  const auto worse = folder.write("worse.trec", "q1 Q0\n");
  expect_error<DataError>([&] { run::read_trec_runs({a, bad, worse}); }, "bad.trec:1: score");
  expect_error<DataError>([&] { run::read_trec_runs({worse, bad}); }, "worse.trec:1: expected 6 fields");
}

TEST(TrecRun, WritingRisingScoresIsABugAndLeavesNoFile) {
  TempFolder folder;
  run::Run bad;
  bad.tag = "x";
  bad.add({"q", {{"a", 1.0}, {"b", 2.0}}});
  EXPECT_THROW(run::write_trec_run(bad, folder.path() / "bad.trec"), InternalError);
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "bad.trec"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder.path()), std::filesystem::directory_iterator()), 0);
}

// Ids are checked at load; one with whitespace reaching the writer would read back as other
// fields, so it stops as a bug and no file is left.
TEST(TrecRun, WritingAnIdWithWhitespaceIsABugAndLeavesNoFile) {
  TempFolder folder;
  run::Run bad;
  bad.tag = "x";
  bad.add({"q", {{"Barack Obama", 1.0}}});
  EXPECT_THROW(run::write_trec_run(bad, folder.path() / "bad.trec"), InternalError);
  bad.rankings = {{"q\t1", {{"a", 1.0}}}};
  bad.reindex();
  EXPECT_THROW(run::write_trec_run(bad, folder.path() / "bad.trec"), InternalError);
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "bad.trec"));
}

TEST(TrecRun, TruncateKeepsTheFirstDocuments) {
  run::Run full;
  full.tag = "t";
  full.add({"q", {{"a", 3}, {"b", 2}, {"c", 1}}});
  full.add({"r", {{"a", 1}}});
  const auto cut = run::truncate(full, 2);
  EXPECT_EQ(cut.find("q")->documents.size(), 2u);
  EXPECT_EQ(cut.find("q")->documents[1].doc_id, "b");
  EXPECT_EQ(cut.find("r")->documents.size(), 1u);
}
