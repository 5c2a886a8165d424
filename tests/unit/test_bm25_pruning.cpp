// MaxScore pruning (search_pruned) against the exhaustive scorer (search): the same hits, bit for bit and in the same
// order, on synthetic corpora with many ties and on SciFact's claims; the bound pairs; the
// synthetic corpus generator.

#include <gtest/gtest.h>

#include <filesystem>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/search.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/dataset/synthetic_corpus.hpp"
#include "claimrag/error.hpp"

using namespace claimrag;

namespace {

void expect_same_hits(const bm25::Searcher& searcher, const std::vector<std::string>& queries,
                      const std::vector<std::size_t>& depths) {
  for (std::size_t q = 0; q < queries.size(); ++q) {
    for (const std::size_t k : depths) {
      const auto pruned = searcher.search_pruned(queries[q], k);
      const auto exhaustive = searcher.search(queries[q], k);
      ASSERT_EQ(pruned.size(), exhaustive.size()) << "query " << q << " k " << k;
      for (std::size_t i = 0; i < pruned.size(); ++i) {
        ASSERT_EQ(pruned[i].document, exhaustive[i].document) << "query " << q << " k " << k << " rank " << i;
        ASSERT_EQ(pruned[i].score, exhaustive[i].score) << "query " << q << " k " << k << " rank " << i;
      }
    }
  }
}

}  // namespace

TEST(Bm25Bounds, KeepTheUndominatedFrequencyLengthPairs) {
  dataset::Corpus corpus;
  // "a": (tf 1, len 4), (tf 2, len 3), (tf 2, len 5), (tf 1, len 2) -> undominated: (2, 3), (1, 2).
  corpus.documents = {{"d0", "", "a x y z"}, {"d1", "", "a a y"}, {"d2", "", "a a x y z"}, {"d3", "", "a z"}};
  const auto index = bm25::build_index(corpus, "");
  const auto a = static_cast<std::uint32_t>(index.term_id("a"));
  const auto frequencies = index.bound_frequencies(a);
  const auto lengths = index.bound_lengths(a);
  ASSERT_EQ(frequencies.size(), 2u);
  ASSERT_EQ(lengths.size(), 2u);
  EXPECT_EQ(frequencies[0], 2u);
  EXPECT_EQ(lengths[0], 3u);
  EXPECT_EQ(frequencies[1], 1u);
  EXPECT_EQ(lengths[1], 2u);
}

TEST(Bm25Pruning, EqualsExhaustiveScoringOnASyntheticCorpusWithTies) {
  dataset::SyntheticCorpusOptions options;
  options.vocabulary = 400;
  options.lengths = {3, 8, 15, 40, 90};
  auto corpus = dataset::synthetic_corpus(1500, options);
  // Copies of earlier documents: equal scores that only the tie rule orders.
  for (std::size_t d = 0; d < 200; ++d) {
    corpus.documents.push_back({"copy" + std::to_string(d), "", corpus.documents[d * 3].text});
    corpus.position.emplace(corpus.documents.back().id, static_cast<std::uint32_t>(corpus.documents.size() - 1));
  }
  const auto index = bm25::build_index(corpus, "");
  auto queries = dataset::synthetic_claims(150, {1, 2, 5, 13, 25}, options);
  queries.push_back("t1 t1 t2 t1");  // repeated words count each time
  queries.push_back("nothing matches");
  for (const auto& parameters : {bm25::Bm25Parameters{1.2, 0.75}, bm25::Bm25Parameters{0.9, 0.4}, bm25::Bm25Parameters{2.0, 1.0},
                                 bm25::Bm25Parameters{0.0, 0.0}}) {
    const bm25::Searcher searcher(index, parameters);
    expect_same_hits(searcher, queries, {1, 3, 10, 100, 200, 5000});
  }
}

TEST(Bm25Pruning, EqualsExhaustiveScoringOnEverySciFactClaim) {
  const std::filesystem::path beir = std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/beir";
  if (!std::filesystem::exists(beir / "corpus.jsonl")) GTEST_SKIP() << "SciFact is absent (scripts/get-data.sh)";
  const auto corpus = dataset::load_corpus(beir / "corpus.jsonl");
  const auto index = bm25::build_index(corpus, "");
  std::vector<std::string> claims;
  for (const auto& query : dataset::load_queries(beir / "queries.jsonl")) claims.push_back(query.text);
  const bm25::Searcher searcher(index, {1.2, 0.75});
  expect_same_hits(searcher, claims, {10, 100, 200});
}

TEST(SyntheticCorpus, SeededZipfWordsWithTheGivenLengths) {
  dataset::SyntheticCorpusOptions options;
  options.vocabulary = 10;
  options.lengths = {4, 6};
  const auto one = dataset::synthetic_corpus(300, options);
  const auto two = dataset::synthetic_corpus(300, options);
  ASSERT_EQ(one.documents.size(), 300u);
  std::size_t rank_one = 0, rank_ten = 0;
  for (std::size_t d = 0; d < one.documents.size(); ++d) {
    EXPECT_EQ(one.documents[d].text, two.documents[d].text);
    EXPECT_EQ(one.documents[d].id, "s" + std::to_string(d));
    std::size_t words = 1;
    for (const char c : one.documents[d].text) words += c == ' ' ? 1 : 0;
    EXPECT_TRUE(words == 4 || words == 6) << one.documents[d].text;
    std::size_t start = 0;
    const std::string& text = one.documents[d].text;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find(' ', start), text.size());
      const std::string word = text.substr(start, end - start);
      rank_one += word == "t1" ? 1 : 0;
      rank_ten += word == "t10" ? 1 : 0;
      start = end + 1;
    }
  }
  // Zipf with s = 1 over 10 words: P(t1) = 1 / H_10 ≈ 0.341, P(t10) ≈ 0.034, about 10 times rarer.
  EXPECT_GT(rank_one, 5 * rank_ten);
  const dataset::ZipfWords zipf(4, 1.0);  // cumulative 12/25, 18/25, 22/25, 1
  EXPECT_EQ(zipf.rank(0.0), 1u);
  EXPECT_EQ(zipf.rank(0.47), 1u);
  EXPECT_EQ(zipf.rank(0.49), 2u);
  EXPECT_EQ(zipf.rank(0.9), 4u);
  EXPECT_EQ(zipf.rank(0.9999999), 4u);
  options.lengths = {};
  EXPECT_THROW(dataset::synthetic_corpus(3, options), UsageError);
  EXPECT_THROW(dataset::ZipfWords(0, 1.0), UsageError);
}
