// The lexical views of the corpus: stemming, weighted BM25, RM3 feedback, ranks and the claim
// features, on cases small enough to compute by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/bm25/search.hpp"
#include "claimrag/error.hpp"
#include "claimrag/retrieval/abstract_indexes.hpp"
#include "claimrag/retrieval/claim_features.hpp"
#include "claimrag/retrieval/feedback.hpp"
#include "claimrag/retrieval/weighted_bm25.hpp"
#include "claimrag/text/character_grams.hpp"
#include "claimrag/text/porter_stemmer.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::expect_error;

namespace {

dataset::Corpus make_corpus(const std::vector<std::pair<std::string, std::string>>& documents) {
  dataset::Corpus corpus;
  for (const auto& [title, text] : documents) {
    const auto position = static_cast<std::uint32_t>(corpus.documents.size());
    corpus.documents.push_back({"doc" + std::to_string(position), title, text});
    corpus.position.emplace(corpus.documents.back().id, position);
  }
  return corpus;
}

std::uint32_t term(const bm25::InvertedIndex& index, const std::string& word) {
  const auto id = index.term_id(word);
  EXPECT_GE(id, 0) << word;
  return static_cast<std::uint32_t>(id);
}

}  // namespace

// Porter's own examples (Porter 1980, "An algorithm for suffix stripping"), through all steps.
TEST(Stemmer, PorterExamples) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"caresses", "caress"}, {"ponies", "poni"},     {"cats", "cat"},         {"feed", "feed"},
      {"agreed", "agre"},     {"plastered", "plaster"}, {"motoring", "motor"}, {"sing", "sing"},
      {"conflated", "conflat"}, {"hopping", "hop"},  {"falling", "fall"},      {"filing", "file"},
      {"happy", "happi"},     {"sky", "sky"},         {"relational", "relat"}, {"hopeful", "hope"},
      {"goodness", "good"},   {"adjustment", "adjust"}, {"adoption", "adopt"}, {"controll", "control"},
      {"generalizations", "gener"}, {"oscillators", "oscil"}};
  for (const auto& [word, stem] : cases) EXPECT_EQ(text::stem_porter(word), stem) << word;
}

// Step 1 alone leaves "increase" and "increas" apart; step 5 drops the final e and unites them.
TEST(Stemmer, InflectionStopsAfterStepOne) {
  EXPECT_EQ(text::stem_inflection("increases"), "increase");
  EXPECT_EQ(text::stem_inflection("increased"), "increas");
  EXPECT_EQ(text::stem_inflection("increasing"), "increas");
  EXPECT_EQ(text::stem_inflection("relational"), "relational");  // step 2 would make it "relate"
  for (const char* word : {"increase", "increases", "increased", "increasing"}) EXPECT_EQ(text::stem_porter(word), "increas");
}

TEST(Stemmer, DigitsAndShortTokensStayAsTheyAre) {
  EXPECT_EQ(text::stem_porter("il6s"), "il6s");
  EXPECT_EQ(text::stem_porter("is"), "is");
  EXPECT_EQ(text::stem_text("Cats, ponies; IL6s!", text::Stemmer::porter), "cat poni il6s");
  EXPECT_EQ(text::stem_text("Cats, ponies", text::Stemmer::none), "cats ponies");
}

// d1 = "a a c": N = 2, avgdl = 2.5, df(c) = 1, idf(c) = ln(1 + 1.5/1.5) = ln 2,
// |d1| = 3: k1·(1 − b + b·3/2.5) = 1.2·1.15 = 1.38, impact = 1·2.2/(1 + 1.38).
TEST(WeightedBm25, HandComputedWeightedTerm) {
  const auto corpus = make_corpus({{"", "a b"}, {"", "a a c"}});
  const auto index = bm25::build_index(corpus, "x");
  std::vector<double> scores(2, 0.0);
  const std::vector<retrieval::WeightedTerm> query{{term(index, "c"), 0.5}};
  retrieval::add_bm25_scores(index, {1.2, 0.75}, query, scores);
  EXPECT_EQ(scores[0], 0.0);
  EXPECT_NEAR(scores[1], 0.5 * std::log(2.0) * 2.2 / 2.38, 1e-15);
}

TEST(WeightedBm25, CountTermsKeepsFirstOccurrenceOrderAndDropsUnknownTokens) {
  const auto index = bm25::build_index(make_corpus({{"", "a b"}, {"", "a a c"}}), "x");
  const auto terms = retrieval::count_terms(index, "c zz a c");
  ASSERT_EQ(terms.size(), 2U);
  EXPECT_EQ(terms[0].term, term(index, "c"));
  EXPECT_EQ(terms[0].weight, 2.0);
  EXPECT_EQ(terms[1].term, term(index, "a"));
  EXPECT_EQ(terms[1].weight, 1.0);
}

// Counted weights reproduce the project's BM25, and the precomputed impacts the oracle, bit for bit.
TEST(WeightedBm25, ImpactsEqualTheOracleAndTheSearcher) {
  const auto corpus = make_corpus({{"Heart failure", "beta blockers reduce mortality in heart failure"},
                                   {"Mortality", "mortality rose"},
                                   {"", "unrelated words only"}});
  const auto index = bm25::build_index(corpus, "x");
  const bm25::Bm25Parameters parameters{0.9, 0.4};
  const std::string query = "heart failure mortality heart";
  const auto terms = retrieval::count_terms(index, query);
  std::vector<double> oracle(3, 0.0);
  retrieval::add_bm25_scores(index, parameters, terms, oracle);
  const retrieval::PostingImpacts impacts(index, parameters);
  EXPECT_EQ(impacts.score_all(terms), oracle);
  const bm25::Searcher searcher(index, parameters);
  for (std::uint32_t d = 0; d < 3; ++d) EXPECT_NEAR(oracle[d], searcher.score(query, d), 1e-12) << d;
}

TEST(Feedback, TopPositionsSkipZerosAndBreakTiesByPosition) {
  const std::vector<double> scores{0.0, 2.0, 2.0, 1.0};
  EXPECT_EQ(retrieval::top_positions(scores, 2), (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(retrieval::top_positions(scores, 10), (std::vector<std::uint32_t>{1, 2, 3}));
}

// Query "x": BM25 ranks d1 = "x z" (shorter) above d0 = "x y y". With one feedback document,
// P(x|d1) = P(z|d1) = 1/2, so R = {x: 1/2, z: 1/2}, and Q' = 0.5·{x: 1} + 0.5·R.
TEST(Feedback, Rm3ByHand) {
  const auto corpus = make_corpus({{"", "x y y"}, {"", "x z"}, {"", "w"}});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::none);
  const auto query = retrieval::count_terms(indexes.whole, "x");
  std::vector<double> scores(3, 0.0);
  retrieval::add_bm25_scores(indexes.whole, {1.2, 0.75}, query, scores);
  ASSERT_GT(scores[1], scores[0]);
  retrieval::FeedbackOptions options;
  options.documents = 1;
  options.terms = 2;
  options.max_document_fraction = 1.0;
  auto expanded = retrieval::rm3_query(indexes, query, scores, options);
  ASSERT_EQ(expanded.size(), 2U);
  EXPECT_EQ(expanded[0].term, term(indexes.whole, "x"));
  EXPECT_DOUBLE_EQ(expanded[0].weight, 0.75);
  EXPECT_EQ(expanded[1].term, term(indexes.whole, "z"));
  EXPECT_DOUBLE_EQ(expanded[1].weight, 0.25);
  // x is in 2 of 3 abstracts: above a 0.5 fraction, it is not an expansion term; z takes R whole.
  options.max_document_fraction = 0.5;
  expanded = retrieval::rm3_query(indexes, query, scores, options);
  ASSERT_EQ(expanded.size(), 2U);
  EXPECT_DOUBLE_EQ(expanded[0].weight, 0.5);
  EXPECT_DOUBLE_EQ(expanded[1].weight, 0.5);
}

TEST(AbstractIndexes, SentencesBigramsAndExactViews) {
  const auto corpus = make_corpus({{"Alpha", "Beta gamma delta. Epsilon betas."}, {"Zeta", "Gamma beta eta."}});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::porter);
  EXPECT_EQ(indexes.sentence_offsets, (std::vector<std::uint32_t>{0, 2, 3}));
  std::vector<std::string> sentence_ids;
  for (const std::string_view id : indexes.sentences.doc_ids().all()) sentence_ids.emplace_back(id);
  EXPECT_EQ(sentence_ids, (std::vector<std::string>{"doc0#0", "doc0#1", "doc1#0"}));
  // "betas" is stemmed in the stemmed views and kept in the exact ones.
  EXPECT_GE(indexes.whole.term_id("beta"), 0);
  EXPECT_LT(indexes.whole.term_id("betas"), 0);
  EXPECT_GE(indexes.exact.term_id("betas"), 0);
  const auto beta = term(indexes.whole, "beta"), gamma = term(indexes.whole, "gamma");
  EXPECT_TRUE(indexes.has_bigram(0, retrieval::pack_bigram(beta, gamma)));
  EXPECT_FALSE(indexes.has_bigram(1, retrieval::pack_bigram(beta, gamma)));
  EXPECT_TRUE(indexes.has_bigram(1, retrieval::pack_bigram(gamma, beta)));
  // title and text run on: "alpha beta" is a bigram of doc0
  EXPECT_TRUE(indexes.has_bigram(0, retrieval::pack_bigram(term(indexes.whole, "alpha"), beta)));
}

TEST(ClaimFeatures, RanksAmongCandidatesBreakTiesByPosition) {
  const std::vector<double> scores{1.0, 3.0, 3.0, 9.0};
  EXPECT_EQ(retrieval::ranks_among(scores, {0, 1, 2}), (std::vector<std::uint32_t>{3, 1, 2}));
}

// Claim "beta gamma" against doc0 = "Alpha / Beta gamma delta. Epsilon betas." and
// doc1 = "Zeta / Gamma beta eta.": both hold both terms (coverage 1); only doc0 holds the bigram.
TEST(ClaimFeatures, HandCheckedColumns) {
  const auto corpus = make_corpus({{"Alpha", "Beta gamma delta. Epsilon betas."}, {"Zeta", "Gamma beta eta."}, {"", "omega"}});
  const auto indexes = retrieval::build_abstract_indexes(corpus, text::Stemmer::porter);
  retrieval::ClaimFeatureOptions options;
  const retrieval::ClaimFeaturizer featurizer(indexes, options);
  const std::vector<double> prior{0.5, -1.5, 2.0};
  const auto claim = featurizer.candidates("Beta gamma", prior);
  ASSERT_EQ(claim.documents, (std::vector<std::uint32_t>{0, 1}));  // doc2 shares no token
  const auto& names = retrieval::claim_feature_names();
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  EXPECT_EQ(claim.features[0][column("coverage")], 1.0);
  EXPECT_EQ(claim.features[1][column("coverage")], 1.0);
  EXPECT_EQ(claim.features[0][column("bigram_fraction")], 1.0);
  EXPECT_EQ(claim.features[1][column("bigram_fraction")], 0.0);
  EXPECT_EQ(claim.features[0][column("title")], 0.0);
  EXPECT_DOUBLE_EQ(claim.features[0][column("log_length")], std::log(1.0 + 6.0));
  // Whole-abstract BM25 over the stemmed view, against the project's searcher.
  const bm25::Searcher stemmed(indexes.whole, options.whole);
  EXPECT_NEAR(claim.features[1][column("bm25")], stemmed.score("beta gamma", 1), 1e-12);
  // The best sentence of doc0 is "beta gamma delta", its second "epsilon beta" (stemmed).
  const bm25::Searcher sentences(indexes.sentences, options.sentence);
  EXPECT_NEAR(claim.features[0][column("sentence_max")], sentences.score("beta gamma", 0), 1e-12);
  EXPECT_NEAR(claim.features[0][column("sentence_second")], sentences.score("beta gamma", 1), 1e-12);
  // The relative columns divide by the claim's best; the best candidate gets exactly 1.
  const auto best = std::max(claim.features[0][column("bm25")], claim.features[1][column("bm25")]);
  EXPECT_DOUBLE_EQ(claim.features[0][column("bm25_relative")], claim.features[0][column("bm25")] / best);
  // Exact tokens: doc0 has "betas", not "beta", in its text, but "beta" in its first sentence.
  const bm25::Searcher exact(indexes.exact, options.whole);
  EXPECT_NEAR(claim.features[0][column("exact_bm25")], exact.score("Beta gamma", 0), 1e-12);
  // The prior is copied per abstract; without one its column is 0; one of another size is refused.
  EXPECT_EQ(claim.features[0][column("abstract_prior")], 0.5);
  EXPECT_EQ(claim.features[1][column("abstract_prior")], -1.5);
  EXPECT_EQ(featurizer.candidates("Beta gamma", {}).features[1][column("abstract_prior")], 0.0);
  const std::vector<double> short_prior{1.0, 2.0};
  expect_error<UsageError>([&] { (void)featurizer.candidates("Beta gamma", short_prior); }, "2 prior values for 3 abstracts");
}

// The n-gram view and its column: BM25 over the grams of the claim as written.
TEST(GramView, MatchesAMisspeltWord) {
  const auto corpus = make_corpus({{"", "nonsteroidal anti-inflammatory drugs"}, {"", "cancer treatment"}});
  const auto indexes = retrieval::build_abstract_indexes(corpus);
  EXPECT_EQ(indexes.gram_size, 3U);
  EXPECT_GE(indexes.grams.term_id("lam"), 0);
  const retrieval::ClaimFeaturizer featurizer(indexes, {});
  // "antinflammatory" is no token of the corpus, but shares grams with "inflammatory".
  const auto claim = featurizer.candidates("antinflammatory", {});
  ASSERT_EQ(claim.documents, (std::vector<std::uint32_t>{0}));
  const auto& names = retrieval::claim_feature_names();
  const auto column = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const bm25::Searcher grams(indexes.grams, {1.2, 0.75});
  EXPECT_NEAR(claim.features[0][column("gram_bm25")], grams.score(text::character_grams("antinflammatory", 3), 0), 1e-12);
  EXPECT_GT(claim.features[0][column("gram_bm25")], 0.0);
  EXPECT_EQ(claim.features[0][column("gram_bm25_relative")], 1.0);
  EXPECT_EQ(claim.features[0][column("bm25")], 0.0);
  retrieval::ClaimFeatureOptions no_gram_candidates;
  no_gram_candidates.gram_depth = 0;
  EXPECT_TRUE(retrieval::ClaimFeaturizer(indexes, no_gram_candidates).candidates("antinflammatory", {}).documents.empty());
  expect_error<UsageError>([&] { (void)retrieval::build_abstract_indexes(corpus, text::Stemmer::porter, 1, 0); }, "gram_size");
}
