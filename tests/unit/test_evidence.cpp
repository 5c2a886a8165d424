#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/evidence/sentences.hpp"
#include "claimrag/metrics/evidence.hpp"
#include "claimrag/text/token_set.hpp"

using namespace claimrag;

namespace {

dataset::Corpus two_documents() {
  dataset::Corpus corpus;
  corpus.documents = {
      {"a", "Title A", "Aspirin lowers blood pressure in adults. Unrelated words about weather patterns. Aspirin and adults appear here too."},
      {"b", "Title B", "Short. Nothing here matches the claim at all!"},
  };
  corpus.position = {{"a", 0}, {"b", 1}};
  return corpus;
}

}  // namespace

TEST(TokenSet, JaccardByHand) {
  EXPECT_EQ(text::token_set("b a a B c"), (text::TokenSet{"a", "b", "c"}));
  EXPECT_DOUBLE_EQ(text::jaccard(text::token_set("a b c"), text::token_set("b c d e")), 2.0 / 5.0);
  EXPECT_EQ(text::jaccard({}, {}), 0.0);
  EXPECT_EQ(text::jaccard(text::token_set("x"), {}), 0.0);
}

TEST(TokenSet, ViewsOfOneTextAtATimeEqualTheTokenSet) {
  text::TokenViews views;
  const text::TokenSet claim = text::token_set("alpha beta one");
  for (const char* text : {"Zeta alpha beta beta gamma delta epsilon", "b a", "", "--", "one-two three two ONE 42nd",
                           "a much longer sentence than any before it, with many words: sixteen characters-long-tokens",
                           "caf\xc3\xa9 na\xc3\xafve end"}) {
    const auto& tokens = views.of(text);
    EXPECT_EQ(std::vector<std::string>(tokens.begin(), tokens.end()), text::token_set(text)) << text;
    EXPECT_EQ(text::jaccard_with_views(claim, tokens), text::jaccard(claim, text::token_set(text))) << text;
  }
}

TEST(Candidates, TopSentencesByOverlapPerDocumentInRankOrder) {
  const auto corpus = two_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  ASSERT_EQ(sentences.of(0).size(), 3u);
  ASSERT_EQ(sentences.of(1).size(), 1u);  // "Short." is under 20 characters
  const run::Ranking ranking{"q", {{"b", 2.0}, {"a", 1.0}}};
  const auto candidates = evidence::select_candidates("Aspirin lowers pressure in adults", ranking, sentences, {10, 2}, "run");
  ASSERT_EQ(candidates.size(), 3u);
  EXPECT_EQ(candidates[0].sentence.doc_id, "b");
  EXPECT_EQ(candidates[0].document_rank, 1u);
  // Claim tokens {adults, aspirin, in, lowers, pressure}. Sentence 0 of a: {adults, aspirin, blood,
  // in, lowers, pressure} -> 5/6; sentence 2: {adults, and, appear, aspirin, here, too} -> 2/9.
  EXPECT_EQ(candidates[1].sentence.index, 0u);
  EXPECT_DOUBLE_EQ(candidates[1].overlap, 5.0 / 6.0);
  EXPECT_EQ(candidates[2].sentence.index, 2u);
  EXPECT_DOUBLE_EQ(candidates[2].overlap, 2.0 / 9.0);
  EXPECT_EQ(candidates[2].sentence.text, "Aspirin and adults appear here too.");
  EXPECT_EQ(corpus.documents[0].text.substr(candidates[2].sentence.begin, candidates[2].sentence.end - candidates[2].sentence.begin),
            candidates[2].sentence.text);
}

TEST(Candidates, DocumentsOutsideTheCorpusAreRefusedAndEmptyRankingsGiveNone) {
  const auto corpus = two_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  EXPECT_TRUE(evidence::select_candidates("x", run::Ranking{"q", {}}, sentences, {}, "run").empty());
  EXPECT_THROW(evidence::select_candidates("x", run::Ranking{"q", {{"zzz", 1.0}}}, sentences, {}, "r.trec"), DataError);
}

TEST(PseudoGold, PicksTheHighestTfidfCosineSentencePerRelevantDocument) {
  const auto corpus = two_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  std::vector<std::string> texts;
  for (const auto& document : corpus.documents) texts.push_back(document.full_text());
  const auto vectorizer = tfidf::TfidfVectorizer::fit(texts);
  const auto gold = evidence::pseudo_gold("weather patterns", {"a", "b"}, sentences, vectorizer);
  ASSERT_EQ(gold.size(), 2u);
  EXPECT_EQ(gold[0].doc_id, "a");
  EXPECT_EQ(gold[0].index, 1u);
  EXPECT_EQ(gold[1].doc_id, "b");  // no overlap anywhere: the first sentence (cosine 0 beats -1)
  EXPECT_EQ(gold[1].index, 0u);
}

TEST(EvidenceMetrics, ExactMatchAndTokenOverlapByHand) {
  const evidence::SentenceRef s1{"a", 0, "alpha beta gamma", 0, 16};
  const evidence::SentenceRef s2{"a", 1, "beta delta", 17, 27};
  const evidence::SentenceRef s3{"b", 0, "alpha alpha", 0, 11};
  auto exact = metrics::exact_match({s1, s2}, {s1});
  EXPECT_DOUBLE_EQ(exact.precision, 0.5);
  EXPECT_DOUBLE_EQ(exact.recall, 1.0);
  EXPECT_DOUBLE_EQ(exact.f1, 2 * 0.5 / 1.5);
  EXPECT_EQ(metrics::exact_match({}, {s1}).f1, 0.0);
  EXPECT_EQ(metrics::exact_match({s2}, {s1}).f1, 0.0);
  // Selected tokens: alpha alpha (2); gold: alpha beta gamma (3); common: alpha (1).
  const auto tokens = metrics::token_overlap({s3}, {s1});
  EXPECT_DOUBLE_EQ(tokens.precision, 0.5);
  EXPECT_DOUBLE_EQ(tokens.recall, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(tokens.f1, 2 * 0.5 * (1.0 / 3.0) / (0.5 + 1.0 / 3.0));
}

TEST(EvidenceMetrics, RationaleSpansFollowTheOneSpaceJoin) {
  const std::vector<dataset::Abstract> abstracts{{"7", "T", {"First one.", "Second sentence.", "Third."}, false}};
  dataset::Claim claim{"c", "claim", {}, {}};
  claim.evidence["7"] = {{{1}, "SUPPORT"}, {{1, 2}, "SUPPORT"}};
  const auto spans = metrics::rationale_spans(claim, abstracts);
  ASSERT_EQ(spans.size(), 2u);  // sentence 1 named twice counts once
  EXPECT_EQ(spans[0].begin, 11u);  // "First one." is 10 bytes, then one space
  EXPECT_EQ(spans[0].end, 27u);
  EXPECT_EQ(spans[1].begin, 28u);
  // A selection covering sentence 1 only, and one in another document.
  const evidence::SentenceRef hit{"7", 0, "Second sentence.", 11, 27};
  const evidence::SentenceRef miss{"8", 0, "Elsewhere entirely.", 11, 27};
  const auto scores = metrics::rationale_match({hit, miss}, spans);
  EXPECT_DOUBLE_EQ(scores.precision, 0.5);
  EXPECT_DOUBLE_EQ(scores.recall, 0.5);
  claim.evidence["99"] = {{{0}, "SUPPORT"}};
  EXPECT_THROW(metrics::rationale_spans(claim, abstracts), DataError);
}
