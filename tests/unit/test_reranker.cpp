#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "claimrag/bm25/index.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/metrics/ranking.hpp"
#include "claimrag/rerank/reranker.hpp"
#include "rerank_fixture.hpp"

using namespace claimrag;

namespace {

std::vector<run::ScoredDocument> ranking_of(std::size_t size) {
  std::vector<run::ScoredDocument> ranking;
  for (std::size_t i = 0; i < size; ++i) ranking.push_back({"d" + std::to_string(i), 100.0 - static_cast<double>(i)});
  return ranking;
}

std::vector<std::string> ids(const std::vector<run::ScoredDocument>& documents) {
  std::vector<std::string> result;
  for (const auto& document : documents) result.push_back(document.doc_id);
  return result;
}

// The synthetic fixture loaded in memory, a model trained on its train claims, and its BM25 test run.
struct Trained {
  std::filesystem::path folder = std::filesystem::temp_directory_path() / "claimrag_test_reranker";
  dataset::Corpus corpus;
  bm25::InvertedIndex index;
  std::unique_ptr<rerank::FeatureExtractor> extractor;
  std::unordered_map<std::string, std::string> texts;
  rerank::RerankerModel model;
  run::Run bm25_run;

  Trained() {
    std::filesystem::remove_all(folder);
    test::write_synthetic_beir(folder);
    corpus = dataset::load_corpus(folder / "corpus.jsonl");
    index = bm25::build_index(corpus, corpus.checksum);
    extractor = std::make_unique<rerank::FeatureExtractor>(corpus, index, bm25::Bm25Parameters{}, tfidf::TfidfOptions{});
    const auto queries = dataset::load_queries(folder / "queries.jsonl");
    for (const auto& query : queries) texts[query.id] = query.text;
    const auto train = dataset::load_split(folder, "train");
    model = rerank::train_reranker(*extractor, dataset::queries_of_split(queries, train, "train"), train,
                                   {30, 1.0, rerank::ClassWeight::balanced, "train"});
    const auto test_qrels = dataset::load_split(folder, "test");
    bm25_run.tag = "bm25";
    for (const auto& query : dataset::queries_of_split(queries, test_qrels, "test")) {
      bm25_run.add(bm25::to_ranking(index, query.id, extractor->searcher().search(query.text, 120)));
    }
  }
  ~Trained() { std::filesystem::remove_all(folder); }
};

}  // namespace

TEST(RerankReorder, HeadByProbabilityTiesInInputOrderTailBelowInOrder) {
  const auto ranking = ranking_of(6);
  const std::vector<double> probabilities = {0.2, 0.9, 0.2, 0.5};
  const auto reordered = rerank::reorder_by_probability(ranking, probabilities);
  EXPECT_EQ(ids(reordered), (std::vector<std::string>{"d1", "d3", "d0", "d2", "d4", "d5"}));
  const std::vector<double> scores = {0.9, 0.5, 0.2, 0.2, -1.0, -2.0};
  for (std::size_t i = 0; i < scores.size(); ++i) EXPECT_EQ(reordered[i].score, scores[i]);
}

TEST(RerankReorder, ScoreOrderEqualsRankOrderEvenAtProbabilityZero) {
  const auto ranking = ranking_of(200);
  std::vector<double> probabilities(50, 0.0);  // sigmoid underflow gives exactly 0
  probabilities[7] = 1e-300;
  const auto reordered = rerank::reorder_by_probability(ranking, probabilities);
  ASSERT_EQ(reordered.size(), 200u);
  EXPECT_EQ(reordered[0].doc_id, "d7");
  for (std::size_t i = 1; i < 50; ++i) EXPECT_LE(reordered[i].score, reordered[i - 1].score);
  for (std::size_t i = 50; i < 200; ++i) {
    EXPECT_LT(reordered[i].score, reordered[i - 1].score);  // strictly: tail after every head score
    EXPECT_EQ(reordered[i].doc_id, ranking[i].doc_id);
  }
  // A tool that sorts by score (stable on ties) sees the written order.
  auto sorted = reordered;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
  EXPECT_EQ(ids(sorted), ids(reordered));
}

TEST(RerankReorder, ShortRankingsAndTooManyProbabilities) {
  const auto ranking = ranking_of(2);
  const std::vector<double> two = {0.1, 0.3};
  EXPECT_EQ(ids(rerank::reorder_by_probability(ranking, two)), (std::vector<std::string>{"d1", "d0"}));
  const std::vector<double> three = {0.1, 0.3, 0.2};
  EXPECT_THROW(rerank::reorder_by_probability(ranking, three), InternalError);
}

TEST(Reranker, LearnsThatTextMatchesMatter) {
  const Trained trained;
  EXPECT_TRUE(trained.model.classifier.converged);
  EXPECT_EQ(trained.model.training_queries, 28u);
  EXPECT_EQ(trained.model.training_rows, 28u * 30u);
  EXPECT_EQ(trained.model.features.names, trained.extractor->definition().names);
  // Claims are drawn from their document's words, so similarity must weigh positively.
  EXPECT_GT(trained.model.classifier.weights[1], 0.0);
}

TEST(Reranker, OnlyTheHeadMovesSoDeepRecallIsUnchanged) {
  const Trained trained;
  const auto reranked = rerank::rerank_run(trained.bm25_run, "bm25.trec", trained.texts, *trained.extractor,
                                           trained.model, {50, {}});
  EXPECT_EQ(reranked.tag, "bm25+rerank");
  ASSERT_EQ(reranked.rankings.size(), trained.bm25_run.rankings.size());
  bool some_head_moved = false;
  for (std::size_t q = 0; q < reranked.rankings.size(); ++q) {
    const auto& before = trained.bm25_run.rankings[q].documents;
    const auto& after = reranked.rankings[q].documents;
    ASSERT_EQ(before.size(), after.size());
    ASSERT_GT(before.size(), 50u);
    const auto head_before = ids({before.begin(), before.begin() + 50});
    const auto head_after = ids({after.begin(), after.begin() + 50});
    EXPECT_EQ(std::multiset<std::string>(head_before.begin(), head_before.end()),
              std::multiset<std::string>(head_after.begin(), head_after.end()));
    some_head_moved = some_head_moved || head_before != head_after;
    for (std::size_t i = 50; i < before.size(); ++i) EXPECT_EQ(after[i].doc_id, before[i].doc_id);
  }
  EXPECT_TRUE(some_head_moved);
  const auto qrels = dataset::load_split(trained.folder, "test");
  const auto specs = metrics::parse_metric_list("recall@50,100,ndcg@100");
  const auto original = metrics::evaluate_run(trained.bm25_run, qrels, specs);
  const auto result = metrics::evaluate_run(reranked, qrels, specs);
  EXPECT_EQ(result.mean[0], original.mean[0]);
  EXPECT_EQ(result.mean[1], original.mean[1]);
}

TEST(Reranker, UnknownDocumentsAndQueriesAreDataErrorsNamingTheFile) {
  const Trained trained;
  run::Run bad = trained.bm25_run;
  bad.rankings[1].documents[77].doc_id = "nowhere";
  try {
    rerank::rerank_run(bad, "in.trec", trained.texts, *trained.extractor, trained.model, {});
    FAIL() << "expected a DataError";
  } catch (const DataError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("in.trec"), std::string::npos) << message;
    EXPECT_NE(message.find("rank 78: document nowhere is not in the corpus"), std::string::npos) << message;
  }
  run::Run unknown_query = trained.bm25_run;
  unknown_query.rankings[0].query_id = "no-such-claim";
  unknown_query.reindex();
  try {
    rerank::rerank_run(unknown_query, "in.trec", trained.texts, *trained.extractor, trained.model, {});
    FAIL() << "expected a DataError";
  } catch (const DataError& error) {
    EXPECT_NE(std::string(error.what()).find("in.trec: query no-such-claim"), std::string::npos) << error.what();
  }
  EXPECT_THROW(rerank::rerank_run(trained.bm25_run, "in.trec", trained.texts, *trained.extractor, trained.model, {0, {}}),
               UsageError);
}

TEST(Reranker, CompatibilityNamesTheFirstDifference) {
  const Trained trained;
  const auto& expected = trained.extractor->definition();
  EXPECT_NO_THROW(rerank::check_compatible(trained.model, expected, "m.safetensors"));
  const auto refused = [&](const rerank::RerankerModel& model, const std::string& words) {
    try {
      rerank::check_compatible(model, expected, "m.safetensors");
      ADD_FAILURE() << "accepted a model that differs in " << words;
    } catch (const DataError& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
      EXPECT_EQ(std::string(error.what()).rfind("m.safetensors: ", 0), 0u) << error.what();
    }
  };
  auto names = trained.model;
  names.features.names = {"bm25", "tfidf_cosine", "jaccard", "doc_length", "claim_length"};
  refused(names, "the model uses the features");
  auto order = trained.model;
  std::swap(order.features.names[0], order.features.names[1]);
  refused(order, "the model uses the features");
  auto corpus = trained.model;
  corpus.features.corpus_checksum = "ffffffffffffffff";
  refused(corpus, "another corpus");
  auto vectorizer = trained.model;
  vectorizer.features.tfidf_fingerprint = "0000000000000000";
  refused(vectorizer, "TF-IDF vectorizer");
  auto cap = trained.model;
  cap.features.tfidf_max_features = 100;
  refused(cap, "TF-IDF vectorizer");
  auto k1 = trained.model;
  k1.features.bm25.k1 = 0.9;
  refused(k1, "k1=0.9");
  auto weights = trained.model;
  weights.classifier.weights.resize(4);
  refused(weights, "4 weights for 5 features");
}
