// Training-pair sampling and the evidence JSON Lines, on hand-made corpora.

#include <gtest/gtest.h>

#include <set>

#include "claimrag/error.hpp"
#include "claimrag/evidence/selection.hpp"
#include "claimrag/evidence/training_pairs.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using claimrag::testing::TempFolder;

namespace {

dataset::Corpus corpus_of(const std::vector<std::pair<std::string, std::string>>& documents) {
  dataset::Corpus corpus;
  for (const auto& [id, text] : documents) {
    corpus.position[id] = static_cast<std::uint32_t>(corpus.documents.size());
    corpus.documents.push_back({id, "Title", text});
  }
  return corpus;
}

// r is relevant; n1..n3 are not; each has two sentences of at least 20 characters.
dataset::Corpus four_documents() {
  return corpus_of({{"r", "Aspirin lowers stroke risk in adults. Relevant second sentence here."},
                    {"n1", "First negative sentence of n1. Second negative sentence of n1."},
                    {"n2", "First negative sentence of n2. Second negative sentence of n2."},
                    {"n3", "First negative sentence of n3. Second negative sentence of n3."}});
}

std::set<std::pair<std::string, std::size_t>> pair_keys(const std::vector<evidence::LabelledPair>& pairs, int label) {
  std::set<std::pair<std::string, std::size_t>> found;
  for (const auto& pair : pairs) {
    if (pair.label == label) found.emplace(pair.sentence.doc_id, pair.sentence.index);
  }
  return found;
}

}  // namespace

TEST(TrainingPairs, PositivesFirstThenDistinctNegativesFromTheTopNonRelevantDocuments) {
  const auto corpus = four_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  const run::Ranking ranking{"c", {{"n1", 4}, {"r", 3}, {"n2", 2}, {"n3", 1}}};
  const evidence::TrainingClaim claim{"c", "Aspirin lowers stroke risk", {sentences.ref(0, 0)}, {"r"}, &ranking};
  std::mt19937_64 rng(42);
  // Top 2 non-relevant documents: n1 and n2 (r is skipped), a pool of 4 sentences; n3 is too deep.
  const auto pairs = evidence::sample_training_pairs({claim}, sentences, {3, 2}, rng, "bm25");
  ASSERT_EQ(pairs.size(), 4u);  // 1 positive + 3 negatives
  EXPECT_EQ(pairs[0].label, evidence::kPositiveLabel);
  EXPECT_EQ(pairs[0].sentence.doc_id, "r");
  EXPECT_EQ(pairs[0].sentence.index, 0u);
  const auto negatives = pair_keys(pairs, evidence::kNegativeLabel);
  EXPECT_EQ(negatives.size(), 3u);  // distinct
  for (const auto& [doc_id, index] : negatives) EXPECT_TRUE(doc_id == "n1" || doc_id == "n2") << doc_id;
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    EXPECT_EQ(pairs[i].claim_id, "c");
    EXPECT_EQ(pairs[i].claim, "Aspirin lowers stroke risk");
  }
}

TEST(TrainingPairs, TheRatioHoldsPerPositiveAndAShortPoolIsTakenWhole) {
  const auto corpus = four_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  const run::Ranking ranking{"c", {{"r", 3}, {"n1", 2}, {"n2", 1}, {"n3", 0.5}}};
  const evidence::TrainingClaim two_positives{"c", "claim", {sentences.ref(0, 0), sentences.ref(0, 1)}, {"r"}, &ranking};
  std::mt19937_64 rng(42);
  // 2 positives × 1 negative from a pool of 6 (n1, n2, n3).
  auto pairs = evidence::sample_training_pairs({two_positives}, sentences, {1, 10}, rng, "bm25");
  EXPECT_EQ(pair_keys(pairs, evidence::kPositiveLabel).size(), 2u);
  EXPECT_EQ(pair_keys(pairs, evidence::kNegativeLabel).size(), 2u);
  // 2 positives × 3 wanted, only 2 documents' 4 sentences: all of them, once each.
  pairs = evidence::sample_training_pairs({two_positives}, sentences, {3, 2}, rng, "bm25");
  EXPECT_EQ(pair_keys(pairs, evidence::kNegativeLabel),
            (std::set<std::pair<std::string, std::size_t>>{{"n1", 0}, {"n1", 1}, {"n2", 0}, {"n2", 1}}));
  EXPECT_EQ(pairs.size(), 6u);
}

TEST(TrainingPairs, ClaimsWithoutPositivesDrawNothingAndTheSeedFixesTheDraws) {
  const auto corpus = four_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  const run::Ranking ranking{"c", {{"n1", 3}, {"n2", 2}, {"n3", 1}}};
  const evidence::TrainingClaim none{"a", "claim a", {}, {"r"}, &ranking};
  const evidence::TrainingClaim one{"b", "claim b", {sentences.ref(0, 0)}, {"r"}, &ranking};
  std::mt19937_64 first(42), second(42);
  const auto with_empty = evidence::sample_training_pairs({none, one}, sentences, {3, 3}, first, "bm25");
  const auto alone = evidence::sample_training_pairs({one}, sentences, {3, 3}, second, "bm25");
  ASSERT_EQ(with_empty.size(), 4u);
  ASSERT_EQ(alone.size(), 4u);
  // The claim without positives consumed no draw: the same negatives as without it.
  for (std::size_t i = 0; i < alone.size(); ++i) EXPECT_EQ(with_empty[i].sentence, alone[i].sentence);
  EXPECT_EQ(first(), second());
}

TEST(TrainingPairs, UnknownRankedDocumentsAreDataErrorsNamingTheSource) {
  const auto corpus = four_documents();
  const evidence::CorpusSentences sentences(corpus, 20);
  const run::Ranking ranking{"c", {{"ghost", 1}}};
  const evidence::TrainingClaim claim{"c", "claim", {sentences.ref(0, 0)}, {"r"}, &ranking};
  std::mt19937_64 rng(42);
  claimrag::testing::expect_error<DataError>(
      [&] { (void)evidence::sample_training_pairs({claim}, sentences, {3, 10}, rng, "train ranking"); },
      "train ranking: query c ranks document ghost");
}

TEST(TrainingPairs, RationaleSpansMapToEveryOverlappingSentence) {
  const auto corpus = corpus_of({{"d", "First sentence is long enough. Second sentence is long enough too. Third one also counts."}});
  const evidence::CorpusSentences sentences(corpus, 20);
  // Bytes: sentence 0 [0, 30), sentence 1 [31, 66), sentence 2 [67, 90).
  auto found = evidence::sentences_overlapping(sentences, 0, 31, 66);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 1u);
  found = evidence::sentences_overlapping(sentences, 0, 20, 40);  // a span across a boundary
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 0u);
  EXPECT_EQ(found[1].index, 1u);
  EXPECT_TRUE(evidence::sentences_overlapping(sentences, 0, 30, 31).empty());  // the space between
}

TEST(EvidenceSelection, BestScoresFirstTiesInCandidateOrderAndEmptyWithReason) {
  const evidence::SentenceRef a{"d1", 0, "Sentence a.", 0, 11}, b{"d1", 2, "Sentence b.", 30, 41}, c{"d2", 1, "Sentence c.", 12, 23};
  const std::vector<evidence::Candidate> candidates{{a, 1, 0.5}, {b, 1, 0.25}, {c, 2, 0.75}};
  const auto chosen = evidence::select_evidence("q", "claim", candidates, {0.2, 0.9, 0.9}, 2, "unused");
  ASSERT_EQ(chosen.selected.size(), 2u);
  EXPECT_EQ(chosen.selected[0].sentence, b);  // 0.9 first, b before c on the tie
  EXPECT_EQ(chosen.selected[1].sentence, c);
  EXPECT_EQ(chosen.selected[1].document_rank, 2u);
  EXPECT_DOUBLE_EQ(chosen.selected[1].overlap, 0.75);
  EXPECT_EQ(chosen.candidates, 3u);
  EXPECT_TRUE(chosen.reason.empty());
  const auto empty = evidence::select_evidence("q", "claim", {}, {}, 2, evidence::kNoSentences);
  EXPECT_TRUE(empty.selected.empty());
  EXPECT_EQ(empty.reason, evidence::kNoSentences);
}

TEST(EvidenceFile, ExactJsonLinesAndRoundTrip) {
  TempFolder folder;
  evidence::ClaimEvidence full{"7", "Aspirin \"works\".", 3, {}, {}};
  full.selected.push_back({{"d1", 4, "It works.", 10, 19}, 0.75, 0.5, 2});
  const evidence::ClaimEvidence empty{"8", "Nothing.", 0, {}, evidence::kNoRanking};
  const auto path = folder.path() / "evidence.jsonl";
  evidence::write_evidence({full, empty}, path);
  EXPECT_EQ(io::read_file(path),
            "{\"claim_id\":\"7\",\"claim\":\"Aspirin \\\"works\\\".\",\"candidates\":3,\"selected\":[{\"doc_id\":\"d1\","
            "\"sentence_index\":4,\"begin\":10,\"end\":19,\"text\":\"It works.\",\"score\":0.75,\"overlap\":0.5,"
            "\"document_rank\":2}]}\n"
            "{\"claim_id\":\"8\",\"claim\":\"Nothing.\",\"candidates\":0,\"selected\":[],"
            "\"reason\":\"the run has no ranking for the claim\"}\n");
  const auto read = evidence::read_evidence(path);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].selected[0].sentence, full.selected[0].sentence);
  EXPECT_EQ(read[0].selected[0].sentence.text, "It works.");
  EXPECT_EQ(read[0].selected[0].sentence.begin, 10u);
  EXPECT_EQ(read[0].selected[0].score, 0.75);
  EXPECT_EQ(read[0].selected[0].document_rank, 2u);
  EXPECT_EQ(read[1].reason, evidence::kNoRanking);
}

TEST(EvidenceFile, MalformedLinesAndRepeatedClaimsAreRefusedWithTheirLine) {
  TempFolder folder;
  const auto missing = folder.write("a.jsonl", "{\"claim_id\":\"1\",\"claim\":\"c\",\"candidates\":0,\"selected\":[]}\n"
                                               "{\"claim_id\":\"2\",\"claim\":\"c\",\"candidates\":1,\"selected\":[{\"doc_id\":\"d\"}]}\n");
  claimrag::testing::expect_error<DataError>([&] { (void)evidence::read_evidence(missing); }, "a.jsonl:2:");
  const auto twice = folder.write("b.jsonl", "{\"claim_id\":\"1\",\"claim\":\"c\",\"candidates\":0,\"selected\":[]}\n"
                                             "{\"claim_id\":\"1\",\"claim\":\"c\",\"candidates\":0,\"selected\":[]}\n");
  claimrag::testing::expect_error<DataError>([&] { (void)evidence::read_evidence(twice); }, "b.jsonl:2: claim 1 appears twice");
}
