#include <gtest/gtest.h>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/dataset/statistics.hpp"
#include "claimrag/error.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;
using claimrag::testing::TempFolder;

TEST(BeirCorpus, LoadsDocumentsInFileOrder) {
  TempFolder folder;
  const auto path = folder.write("corpus.jsonl",
                                 R"({"_id": "d1", "title": "T1", "text": "one", "metadata": {}})"
                                 "\n"
                                 R"({"_id": 7, "text": "seven"})"
                                 "\n");
  const auto corpus = dataset::load_corpus(path);
  ASSERT_EQ(corpus.documents.size(), 2u);
  EXPECT_EQ(corpus.documents[0].id, "d1");
  EXPECT_EQ(corpus.documents[0].full_text(), "T1 one");
  EXPECT_EQ(corpus.documents[1].id, "7");  // integer ids are accepted and written in decimal
  EXPECT_EQ(corpus.documents[1].title, "");
  EXPECT_EQ(corpus.find("7"), 1);
  EXPECT_EQ(corpus.find("nope"), -1);
  EXPECT_EQ(corpus.checksum.size(), 16u);
}

TEST(BeirCorpus, AcceptsByteOrderMarkCrlfAndBlankLines) {
  TempFolder folder;
  const auto path = folder.write("corpus.jsonl",
                                 "\xEF\xBB\xBF{\"_id\": \"a\", \"text\": \"x\"}\r\n\r\n{\"_id\": \"b\", \"text\": \"y\"}\r\n");
  const auto corpus = dataset::load_corpus(path);
  ASSERT_EQ(corpus.documents.size(), 2u);
  EXPECT_EQ(corpus.documents[1].text, "y");
}

TEST(BeirCorpus, RefusesMalformedInputNamingFileAndLine) {
  TempFolder folder;
  const std::string good = R"({"_id": "a", "text": "x"})";
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c1.jsonl", good + "\n{\"_id\": \"b\", \"text\": ")); },
                          "c1.jsonl:2: malformed JSON");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c2.jsonl", good + "\n{\"text\": \"y\"}\n")); },
                          "c2.jsonl:2: \"_id\" is missing");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c3.jsonl", "{\"_id\": \"a\"}\n")); },
                          "c3.jsonl:1: \"text\" is missing");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c4.jsonl", "{\"_id\": \"a\", \"text\": 3}\n")); },
                          "c4.jsonl:1: \"text\" is not a string");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c5.jsonl", good + "\n" + good + "\n")); },
                          "c5.jsonl:2: duplicate document id \"a\" (first on line 1)");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c6.jsonl", "[1, 2]\n")); },
                          "c6.jsonl:1: expected a JSON object");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c7.jsonl", "\n\n")); },
                          "c7.jsonl: holds no JSON object (an empty input is refused)");
  expect_error<DataError>([&] { dataset::load_corpus(folder.path() / "absent.jsonl"); }, "absent.jsonl: no such file");
}

TEST(BeirQueries, KeepsMetadataAndRefusesDuplicates) {
  TempFolder folder;
  const auto path = folder.write("queries.jsonl",
                                 R"({"_id": "q1", "text": "a claim", "metadata": {"d": [{"sentences": [1]}]}})"
                                 "\n"
                                 R"({"_id": "q2", "text": "other"})"
                                 "\n");
  const auto queries = dataset::load_queries(path);
  ASSERT_EQ(queries.size(), 2u);
  EXPECT_EQ(queries[0].metadata_json, R"({"d":[{"sentences":[1]}]})");
  EXPECT_EQ(queries[1].metadata_json, "{}");
  expect_error<DataError>(
      [&] { dataset::load_queries(folder.write("q.jsonl", R"({"_id": "q", "text": "a"})" "\n" R"({"_id": "q", "text": "b"})")); },
      "q.jsonl:2: duplicate query id");
}

TEST(BeirQrels, ParsesWithOrWithoutHeader) {
  TempFolder folder;
  const auto with_header = dataset::load_qrels(folder.write("a.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\r\nq2\td1\t2\n"));
  EXPECT_EQ(with_header.pair_count, 3u);
  EXPECT_EQ(with_header.query_order, (std::vector<std::string>{"q1", "q2"}));
  EXPECT_EQ(with_header.judgments.at("q1").at("d2"), 0);
  EXPECT_EQ(with_header.judgments.at("q2").at("d1"), 2);
  const auto without_header = dataset::load_qrels(folder.write("b.tsv", "q1\td1\t1\n"));
  EXPECT_EQ(without_header.pair_count, 1u);
}

TEST(BeirQrels, RefusesWrongFieldCountsScoresAndRepeats) {
  TempFolder folder;
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("a.tsv", "query-id\tcorpus-id\tscore\nq1\td1\n")); },
                          "a.tsv:2: expected 3 tab-separated fields");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("b.tsv", "q1 d1 1\n")); }, "b.tsv:1: expected 3");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("c.tsv", "q1\td1\tyes\n")); },
                          "c.tsv:1: score \"yes\" is not an integer");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("d.tsv", "q1\td1\t1\nq1\td1\t1\n")); },
                          "d.tsv:2: query q1 judges document d1 twice");
}

// Runs separate fields by whitespace: an id holding any is refused where it is loaded, with the
// file and line, in each of the three files of a BEIR folder.
TEST(BeirIds, WhitespaceInAnyIdIsRefusedNamingFileAndLine) {
  TempFolder folder;
  const std::string good = R"({"_id": "Aspirin", "text": "x"})";
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("c.jsonl", good + "\n" + R"({"_id": "Barack Obama", "text": "y"})")); },
                          "c.jsonl:2: \"_id\" \"Barack Obama\" contains a space (byte 7)");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("t.jsonl", R"({"_id": "a\tb", "text": "y"})")); },
                          "t.jsonl:1: \"_id\" \"a\tb\" contains a tab (byte 2)");
  expect_error<DataError>([&] { dataset::load_corpus(folder.write("n.jsonl", R"({"_id": "a\nb", "text": "y"})")); },
                          "n.jsonl:1: \"_id\" \"a\nb\" contains a newline (byte 2)");
  expect_error<DataError>([&] { dataset::load_queries(folder.write("q.jsonl", R"({"_id": "q 1", "text": "a claim"})")); },
                          "q.jsonl:1: \"_id\" \"q 1\" contains a space (byte 2)");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("a.tsv", "q1\td1\t1\nq1\tBarack Obama\t1\n")); },
                          "a.tsv:2: corpus-id \"Barack Obama\" contains a space (byte 7)");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("b.tsv", "q 1\td1\t1\n")); },
                          "b.tsv:1: query-id \"q 1\" contains a space (byte 2)");
  expect_error<DataError>([&] { dataset::load_qrels(folder.write("e.tsv", "q1\t\t1\n")); }, "e.tsv:1: corpus-id \"\" is empty");
  // Punctuation and non-ASCII bytes are not whitespace: such ids stay valid.
  EXPECT_EQ(dataset::load_corpus(folder.write("ok.jsonl", R"({"_id": "Caf\u00e9_(Paris),1", "text": "y"})")).documents[0].id,
            "Caf\xC3\xA9_(Paris),1");
}

TEST(BeirSplits, ListsSplitsAndRefusesUnknownOnes) {
  TempFolder folder;
  folder.write("qrels/train.tsv", "q1\td1\t1\n");
  folder.write("qrels/test.tsv", "q2\td1\t1\n");
  EXPECT_EQ(dataset::available_splits(folder.path()), (std::vector<std::string>{"test", "train"}));
  expect_error<UsageError>([&] { dataset::load_split(folder.path(), "dev"); }, "unknown split \"dev\"");
  expect_error<UsageError>([&] { dataset::load_split(folder.path(), "dev"); }, "(known: test, train)");
}

TEST(BeirSplits, QueriesOfSplitFollowQrelsOrderAndRefuseUnknownQueries) {
  const std::vector<dataset::Query> all{{"a", "A", "{}"}, {"b", "B", "{}"}, {"c", "C", "{}"}};
  dataset::Qrels qrels;
  qrels.judgments["c"]["d"] = 1;
  qrels.judgments["a"]["d"] = 1;
  qrels.query_order = {"c", "a"};
  const auto selected = dataset::queries_of_split(all, qrels, "q.tsv");
  ASSERT_EQ(selected.size(), 2u);
  EXPECT_EQ(selected[0].id, "c");
  qrels.query_order.push_back("zzz");
  qrels.judgments["zzz"]["d"] = 1;
  expect_error<DataError>([&] { dataset::queries_of_split(all, qrels, "q.tsv"); }, "q.tsv: judges query \"zzz\"");
}

TEST(Statistics, CountsAndMeansComputedByHand) {
  dataset::Corpus corpus;
  corpus.documents = {{"d1", "Alpha beta", "gamma"}, {"d2", "", "one two three four five"}};
  const std::vector<dataset::Query> queries{{"q1", "a b", "{}"}, {"q2", "a b c d", "{}"}, {"q3", "x", "{}"}};
  dataset::Qrels test;
  test.judgments["q1"] = {{"d1", 1}, {"d2", 1}};
  test.judgments["q2"] = {{"d1", 1}};
  test.query_order = {"q1", "q2"};
  test.pair_count = 3;
  const auto statistics = dataset::compute_statistics(corpus, queries, {{"test", test}});
  EXPECT_EQ(statistics.documents, 2u);
  EXPECT_DOUBLE_EQ(statistics.mean_document_tokens, (3.0 + 5.0) / 2.0);
  ASSERT_EQ(statistics.splits.size(), 1u);
  EXPECT_EQ(statistics.splits[0].queries, 2u);
  EXPECT_EQ(statistics.splits[0].pairs, 3u);
  EXPECT_DOUBLE_EQ(statistics.splits[0].mean_query_tokens, (2.0 + 4.0) / 2.0);
}

TEST(SciFactOriginal, LoadsAbstractsAndClaimsWithRationales) {
  TempFolder folder;
  const auto corpus = folder.write("corpus.jsonl",
                                   R"({"doc_id": 11, "title": "T", "abstract": ["S0.", "S1."], "structured": false})" "\n");
  const auto claims = folder.write("claims.jsonl",
                                   R"({"id": 1, "claim": "C", "evidence": {"11": [{"sentences": [1], "label": "SUPPORT"}]}, "cited_doc_ids": [11]})"
                                   "\n"
                                   R"({"id": 2, "claim": "D", "evidence": {}, "cited_doc_ids": [11]})"
                                   "\n"
                                   R"({"id": 3, "claim": "E"})"
                                   "\n");
  const auto abstracts = dataset::load_abstracts(corpus);
  ASSERT_EQ(abstracts.size(), 1u);
  EXPECT_EQ(abstracts[0].doc_id, "11");
  EXPECT_EQ(abstracts[0].sentences.size(), 2u);
  const auto loaded = dataset::load_claims(claims, &abstracts);
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(loaded[0].evidence.at("11")[0].sentences, std::vector<int>{1});
  EXPECT_EQ(loaded[0].evidence.at("11")[0].label, "SUPPORT");
  EXPECT_EQ(loaded[0].cited_doc_ids, std::vector<std::string>{"11"});
  EXPECT_TRUE(loaded[1].evidence.empty());
  EXPECT_TRUE(loaded[2].cited_doc_ids.empty());
}

TEST(SciFactOriginal, RefusesRationalesPastTheAbstractAndUnknownLabels) {
  TempFolder folder;
  const auto corpus = folder.write("corpus.jsonl", R"({"doc_id": 11, "title": "T", "abstract": ["S0."]})" "\n");
  const auto abstracts = dataset::load_abstracts(corpus);
  expect_error<DataError>(
      [&] {
        dataset::load_claims(folder.write("a.jsonl", R"({"id": 1, "claim": "C", "evidence": {"11": [{"sentences": [3], "label": "SUPPORT"}]}})"),
                             &abstracts);
      },
      "a.jsonl:1: sentence 3 of document 11 is past its last sentence");
  expect_error<DataError>(
      [&] {
        dataset::load_claims(folder.write("b.jsonl", R"({"id": 1, "claim": "C", "evidence": {"11": [{"sentences": [0], "label": "MAYBE"}]}})"));
      },
      "b.jsonl:1: evidence label \"MAYBE\"");
  expect_error<DataError>(
      [&] {
        dataset::load_claims(folder.write("c.jsonl", R"({"id": 1, "claim": "C", "evidence": {"99": [{"sentences": [0], "label": "SUPPORT"}]}})"),
                             &abstracts);
      },
      "c.jsonl:1: evidence names document 99");
}

TEST(SciFactOriginal, RefusesRationaleSetsOfOneDocumentThatDisagreeOnTheLabel) {
  TempFolder folder;
  const auto file = folder.write("claims.jsonl",
                                 R"({"id": 1, "claim": "C", "evidence": {"11": [{"sentences": [0], "label": "SUPPORT"}]}})"
                                 "\n"
                                 R"({"id": 2, "claim": "D", "evidence": {"11": [{"sentences": [0], "label": "SUPPORT"}, )"
                                 R"({"sentences": [1], "label": "CONTRADICT"}]}})"
                                 "\n");
  expect_error<DataError>([&] { dataset::load_claims(file); },
                          "claims.jsonl:2: the rationale sets of document 11 disagree on the label (SUPPORT and CONTRADICT)");
}

TEST(SciFactOriginal, RealDevClaimsKeepTheirLabels) {
  const auto claims_file = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original/claims_dev.jsonl";
  if (!std::filesystem::exists(claims_file)) GTEST_SKIP() << "no SciFact data at " << claims_file;
  const auto claims = dataset::load_claims(claims_file);
  ASSERT_EQ(claims.size(), 300u);
  std::size_t documents = 0, supported = 0, contradicted = 0;
  for (const auto& claim : claims) {
    for (const auto& [doc_id, sets] : claim.evidence) {
      ++documents;
      supported += sets.front().label == "SUPPORT" ? 1 : 0;
      contradicted += sets.front().label == "CONTRADICT" ? 1 : 0;
    }
  }
  // 209 evidence abstracts on dev, each labelled: SUPPORT 138, CONTRADICT 71 (counted from the
  // file with a separate script when this test was written).
  EXPECT_EQ(documents, 209u);
  EXPECT_EQ(supported, 138u);
  EXPECT_EQ(contradicted, 71u);
  // The file's first lines: claim 1 has no evidence; claim 3 two SUPPORT sets in abstract 14717500.
  EXPECT_EQ(claims[0].id, "1");
  EXPECT_TRUE(claims[0].evidence.empty());
  ASSERT_EQ(claims[1].id, "3");
  const auto& sets = claims[1].evidence.at("14717500");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].sentences, (std::vector<int>{2, 5}));
  EXPECT_EQ(sets[0].label, "SUPPORT");
  EXPECT_EQ(sets[1].sentences, (std::vector<int>{7}));
  EXPECT_EQ(sets[1].label, "SUPPORT");
}
