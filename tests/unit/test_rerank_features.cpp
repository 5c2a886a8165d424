#include <gtest/gtest.h>

#include <cmath>
#include <omp.h>

#include "claimrag/bm25/index.hpp"
#include "claimrag/error.hpp"
#include "claimrag/rerank/features.hpp"
#include "claimrag/rerank/training_set.hpp"
#include "rerank_fixture.hpp"

using namespace claimrag;
using rerank::FeatureExtractor;

namespace {

// Hand corpus (rerank_fixture.hpp), title + " " + text tokenised:
//   d1: cats cats eat fish (4)   d2: dogs dogs eat meat (4)   d3: birds sing (2)
struct HandSetup {
  dataset::Corpus corpus = test::hand_corpus();
  bm25::InvertedIndex index = bm25::build_index(corpus, corpus.checksum);
  FeatureExtractor extractor{corpus, index, {1.2, 0.75}, {}};
};

constexpr double kTight = 1e-14;

}  // namespace

TEST(RerankFeatures, NamesAndDefinition) {
  const HandSetup setup;
  const auto& definition = setup.extractor.definition();
  EXPECT_EQ(definition.names,
            (std::vector<std::string>{"bm25", "tfidf_cosine", "jaccard", "doc_length", "query_length"}));
  EXPECT_EQ(definition.corpus_checksum, "0123456789abcdef");
  EXPECT_EQ(definition.tfidf_fingerprint, setup.extractor.vectorizer().fingerprint());
  EXPECT_EQ(definition.tfidf_max_features, 50000u);
  EXPECT_EQ(definition.bm25.k1, 1.2);
  EXPECT_EQ(definition.bm25.b, 0.75);
}

TEST(RerankFeatures, HandComputedValues) {
  const HandSetup setup;
  // "Do cats eat?": tokens do, cats, eat; "do" is in no document.
  const auto query = setup.extractor.prepare("Do cats eat?");
  const auto d1 = setup.extractor.features(query, 0);
  const auto d2 = setup.extractor.features(query, 1);
  const auto d3 = setup.extractor.features(query, 2);

  // BM25: N = 3, avgdl = 10/3. idf(cats) = ln(1 + 2.5/1.5), idf(eat) = ln(1 + 1.5/2.5).
  // d1 and d2 have |d|/avgdl = 1.2, so k1·(1 − b + b·1.2) = 1.2·1.15 = 1.38.
  const double idf_cats = std::log(1.0 + 2.5 / 1.5);
  const double idf_eat = std::log(1.6);
  const double eat_once = idf_eat * 2.2 / (1.0 + 1.38);
  EXPECT_NEAR(d1[0], idf_cats * 2.0 * 2.2 / (2.0 + 1.38) + eat_once, kTight);
  EXPECT_NEAR(d2[0], eat_once, kTight);
  EXPECT_EQ(d3[0], 0.0);

  // TF-IDF (smooth idf, n = 3): A = idf of a df-1 term = ln(4/2) + 1, B = idf(eat) = ln(4/3) + 1.
  // q = (cats A, eat B); d1 = (cats 2A, eat B, fish A); d2 = (dogs 2A, eat B, meat A).
  const double A = std::log(2.0) + 1.0;
  const double B = std::log(4.0 / 3.0) + 1.0;
  const double norm_q = std::sqrt(A * A + B * B);
  const double norm_d = std::sqrt(5 * A * A + B * B);
  EXPECT_NEAR(d1[1], (2 * A * A + B * B) / (norm_q * norm_d), kTight);
  EXPECT_NEAR(d2[1], (B * B) / (norm_q * norm_d), kTight);
  EXPECT_EQ(d3[1], 0.0);

  // Jaccard: {do, cats, eat} against {cats, eat, fish}: 2/4; {dogs, eat, meat}: 1/5; {birds, sing}: 0/5.
  EXPECT_EQ(d1[2], 0.5);
  EXPECT_EQ(d2[2], 0.2);
  EXPECT_EQ(d3[2], 0.0);

  EXPECT_EQ(d1[3], 4.0);
  EXPECT_EQ(d2[3], 4.0);
  EXPECT_EQ(d3[3], 2.0);
  for (const auto& row : {d1, d2, d3}) EXPECT_EQ(row[4], 3.0);
}

TEST(RerankFeatures, CosineIsBitIdenticalToTfidfCosine) {
  const auto folder = std::filesystem::temp_directory_path() / "claimrag_test_rerank_cosine";
  std::filesystem::remove_all(folder);
  test::write_synthetic_beir(folder);
  const auto corpus = dataset::load_corpus(folder / "corpus.jsonl");
  const auto index = bm25::build_index(corpus, corpus.checksum);
  const FeatureExtractor extractor(corpus, index, {}, {});
  std::size_t nonzero = 0;
  for (const auto& claim : {"w0 w3 w17 w17 w40", "w1 w2", "w59 title 3 unknown"}) {
    const auto query = extractor.prepare(claim);
    for (std::uint32_t d = 0; d < corpus.documents.size(); ++d) {
      const double expected =
          tfidf::cosine(extractor.vectorizer().transform(claim), extractor.vectorizer().transform(corpus.documents[d].full_text()));
      EXPECT_EQ(extractor.features(query, d)[1], expected) << claim << " / " << d;
      nonzero += expected != 0.0;
    }
  }
  EXPECT_GT(nonzero, 100u);
  std::filesystem::remove_all(folder);
}

TEST(RerankFeatures, ClaimTablesGiveTheExtractorsFeaturesBitForBit) {
  const auto folder = std::filesystem::temp_directory_path() / "claimrag_test_rerank_tables";
  std::filesystem::remove_all(folder);
  test::write_synthetic_beir(folder);
  const auto corpus = dataset::load_corpus(folder / "corpus.jsonl");
  const auto index = bm25::build_index(corpus, corpus.checksum);
  const FeatureExtractor extractor(corpus, index, {}, {});
  rerank::ClaimTables tables(extractor);
  EXPECT_THROW((void)tables.features(0, 0.0), InternalError);  // no claim loaded yet
  // Claims in sequence: each load must clear the previous claim's entries.
  for (const auto& claim : {"w0 w3 w17 w17 w40 zebra", "w1 w2", "", "w59 title 3 unknown", "w0"}) {
    const auto query = extractor.prepare(claim);
    tables.load(query);
    for (std::uint32_t d = 0; d < corpus.documents.size(); ++d) {
      const double bm25 = extractor.searcher().score(claim, d);
      EXPECT_EQ(tables.features(d, bm25), extractor.features(query, d)) << claim << " / " << d;
    }
  }
  EXPECT_THROW((void)tables.features(static_cast<std::uint32_t>(corpus.documents.size()), 0.0), InternalError);
  std::filesystem::remove_all(folder);
}

TEST(RerankFeatures, RepeatedWordsCountInLengthsNotInSets) {
  const HandSetup setup;
  const auto query = setup.extractor.prepare("cats CATS");
  EXPECT_EQ(query.length, 2.0);
  EXPECT_EQ(query.known_terms.size(), 1u);
  EXPECT_EQ(query.unknown_terms, 0u);
  const auto d1 = setup.extractor.features(query, 0);
  EXPECT_DOUBLE_EQ(d1[2], 1.0 / 3.0);  // {cats} against {cats, eat, fish}
  EXPECT_EQ(d1[4], 2.0);
  // A repeated query word adds its BM25 term twice.
  const double cats_once = std::log(1.0 + 2.5 / 1.5) * 2.0 * 2.2 / (2.0 + 1.38);
  EXPECT_NEAR(d1[0], 2 * cats_once, kTight);
  const auto unknown = setup.extractor.prepare("zebra zebra yak");
  EXPECT_EQ(unknown.unknown_terms, 2u);
  EXPECT_EQ(setup.extractor.features(unknown, 2)[2], 0.0);  // 0 / (2 + 2)
}

TEST(RerankFeatures, EmptyQueryAndJaccardOfEmptySets) {
  const HandSetup setup;
  const auto empty = setup.extractor.prepare("?!");
  const auto row = setup.extractor.features(empty, 0);
  EXPECT_EQ(row[0], 0.0);
  EXPECT_EQ(row[1], 0.0);
  EXPECT_EQ(row[2], 0.0);
  EXPECT_EQ(row[3], 4.0);
  EXPECT_EQ(row[4], 0.0);
  EXPECT_EQ(rerank::jaccard(0, 0, 0), 0.0);
  EXPECT_EQ(rerank::jaccard(3, 4, 2), 0.4);
}

TEST(RerankFeatures, Bm25OfDocumentsBm25DidNotReturnIsTheTrueScore) {
  const HandSetup setup;
  const auto query = setup.extractor.prepare("eat");
  const auto hits = setup.extractor.searcher().search("eat", 1);
  ASSERT_EQ(hits.size(), 1u);
  const std::uint32_t other = hits[0].document == 0 ? 1 : 0;  // also contains "eat", not returned at k=1
  EXPECT_GT(setup.extractor.features(query, other)[0], 0.0);
  EXPECT_EQ(setup.extractor.features(query, other)[0], setup.extractor.searcher().score("eat", other));
  EXPECT_EQ(setup.extractor.features(query, hits[0].document)[0], hits[0].score);
}

TEST(RerankFeatures, FindsDocumentsById) {
  const HandSetup setup;
  EXPECT_EQ(setup.extractor.find_document("d1"), 0);
  EXPECT_EQ(setup.extractor.find_document("d3"), 2);
  EXPECT_EQ(setup.extractor.find_document("d4"), -1);
  EXPECT_EQ(setup.extractor.find_document(""), -1);
}

TEST(RerankFeatures, IndexFromAnotherCorpusIsRefused) {
  const auto corpus = test::hand_corpus();
  auto other = corpus;
  std::swap(other.documents[0], other.documents[1]);
  const auto index = bm25::build_index(other, corpus.checksum);
  EXPECT_THROW(FeatureExtractor(corpus, index, {}, {}), DataError);
}

TEST(RerankTrainingSet, LabelsComeFromTheQrelsOverBm25Candidates) {
  const HandSetup setup;
  const std::vector<dataset::Query> queries = {{"q1", "cats eat", "{}"}, {"q2", "birds", "{}"}};
  dataset::Qrels qrels;
  // q1: d1 relevant, d2 judged not relevant (grade 0), d3 relevant but never retrieved.
  qrels.judgments["q1"] = {{"d1", 1}, {"d2", 0}, {"d3", 2}};
  qrels.judgments["q2"] = {{"d3", 1}};
  const auto set = rerank::build_training_set(setup.extractor, queries, qrels, 100);
  // q1 retrieves d1 then d2 (d3 shares no token); q2 retrieves d3 only.
  ASSERT_EQ(set.labels, (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(set.query_ids, (std::vector<std::string>{"q1", "q1", "q2"}));
  EXPECT_EQ(set.documents, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(set.positives(), 2u);
  ASSERT_EQ(set.features.rows(), 3);
  ASSERT_EQ(set.features.cols(), 5);
  const auto prepared = setup.extractor.prepare("cats eat");
  const auto expected = setup.extractor.features(prepared, 1);
  for (std::size_t f = 0; f < 5; ++f) EXPECT_EQ(set.features(1, static_cast<Eigen::Index>(f)), expected[f]);

  const auto shallow = rerank::build_training_set(setup.extractor, queries, qrels, 1);
  EXPECT_EQ(shallow.labels, (std::vector<int>{1, 1}));
  EXPECT_EQ(shallow.documents, (std::vector<std::uint32_t>{0, 2}));
}

TEST(RerankTrainingSet, RefusesUnjudgedQueriesAndZeroDepth) {
  const HandSetup setup;
  const std::vector<dataset::Query> queries = {{"q9", "cats", "{}"}};
  dataset::Qrels qrels;
  qrels.judgments["q1"] = {{"d1", 1}};
  EXPECT_THROW(rerank::build_training_set(setup.extractor, queries, qrels, 10), UsageError);
  qrels.judgments["q9"] = {{"d1", 1}};
  EXPECT_THROW(rerank::build_training_set(setup.extractor, queries, qrels, 0), UsageError);
}

TEST(RerankTrainingSet, DoesNotDependOnTheThreadCount) {
  const auto folder = std::filesystem::temp_directory_path() / "claimrag_test_rerank_threads";
  std::filesystem::remove_all(folder);
  test::write_synthetic_beir(folder);
  const auto corpus = dataset::load_corpus(folder / "corpus.jsonl");
  const auto index = bm25::build_index(corpus, corpus.checksum);
  const auto queries = dataset::load_queries(folder / "queries.jsonl");
  const auto qrels = dataset::load_split(folder, "train");
  const auto judged = dataset::queries_of_split(queries, qrels, "train");
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const FeatureExtractor one(corpus, index, {}, {});
  const auto serial = rerank::build_training_set(one, judged, qrels, 30);
  omp_set_num_threads(2);
  const FeatureExtractor two(corpus, index, {}, {});
  const auto parallel = rerank::build_training_set(two, judged, qrels, 30);
  omp_set_num_threads(threads);
  ASSERT_EQ(serial.features.rows(), 28 * 30);
  EXPECT_EQ(serial.labels, parallel.labels);
  EXPECT_EQ(serial.documents, parallel.documents);
  EXPECT_TRUE((serial.features.array() == parallel.features.array()).all());
  std::filesystem::remove_all(folder);
}
