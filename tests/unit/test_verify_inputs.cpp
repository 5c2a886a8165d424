// Assembling the verifier's inputs (run, pairs, claim), checking its verdicts and reporting them,
// with the hand-computable OverlapVerifier standing in for a trained model.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "claimrag/verification/verdict_report.hpp"
#include "claimrag/verification/verification_pairs.hpp"
#include "claimrag/verification/verify_inputs.hpp"
#include "overlap_verifier.hpp"
#include "support/temp_folder.hpp"

namespace claimrag {
namespace {

namespace fs = std::filesystem;
using testing::expect_error;
using testing::OverlapVerifier;
using testing::TempFolder;
using verification::Label;
using verification::VerificationInput;

dataset::Corpus make_corpus(std::vector<dataset::Document> documents) {
  dataset::Corpus corpus;
  corpus.documents = std::move(documents);
  for (std::uint32_t d = 0; d < corpus.documents.size(); ++d) corpus.position.emplace(corpus.documents[d].id, d);
  return corpus;
}

dataset::Corpus two_documents() {
  return make_corpus({{"10", "Aspirin", "Aspirin lowers risk. It is cheap. Ok."},
                      {"20", "Coffee", "Coffee is not linked to heart disease."}});
}

run::Run make_run(std::vector<run::Ranking> rankings) {
  run::Run run;
  run.tag = "test";
  for (auto& ranking : rankings) run.add(std::move(ranking));
  return run;
}

TEST(VerifyInputs, EvidenceSentencesKeepEveryFragmentHoweverShort) {
  EXPECT_EQ(verification::evidence_sentences("Yes. It works!  Ok"), (std::vector<std::string>{"Yes.", "It works!", "Ok"}));
  EXPECT_TRUE(verification::evidence_sentences("  \n ").empty());
}

TEST(VerifyInputs, SentencesSplitFromTheBeirTextOrTakenFromTheReleaseLayout) {
  const auto corpus = two_documents();
  const verification::DocumentSentences split(corpus);
  const auto first = split.document(0);
  EXPECT_EQ(first.doc_id, "10");
  EXPECT_EQ(first.title, "Aspirin");
  EXPECT_EQ(first.sentences, (std::vector<std::string>{"Aspirin lowers risk.", "It is cheap.", "Ok."}));
  EXPECT_FALSE(split.from_release_layout());

  std::vector<dataset::Abstract> abstracts{{"20", "Coffee", {"Coffee is not linked.", "To heart disease."}, false},
                                           {"10", "Aspirin", {"Aspirin lowers risk. It is cheap. Ok."}, false}};
  const verification::DocumentSentences released(corpus, abstracts, "original/corpus.jsonl");
  EXPECT_TRUE(released.from_release_layout());
  EXPECT_EQ(released.document(0).sentences, (std::vector<std::string>{"Aspirin lowers risk. It is cheap. Ok."}));
  EXPECT_EQ(released.document(1).sentences, (std::vector<std::string>{"Coffee is not linked.", "To heart disease."}));
}

TEST(VerifyInputs, AReleaseLayoutMissingACorpusDocumentIsADataErrorNamingFileAndDocument) {
  const auto corpus = two_documents();
  std::vector<dataset::Abstract> abstracts{{"10", "Aspirin", {"One sentence."}, false}};
  expect_error<DataError>([&] { verification::DocumentSentences(corpus, abstracts, "orig/corpus.jsonl"); },
                          "orig/corpus.jsonl: has no abstract for corpus document 20");
}

TEST(VerifyInputs, ClaimsKeepTheirOrderAndGetTheirTopKDocumentsWithRankAndScore) {
  const auto corpus = two_documents();
  const verification::DocumentSentences sentences(corpus);
  // The run lists q2 before q1; q3 is not in it.
  const auto run = make_run({{"q2", {{"10", 3.0}}}, {"q1", {{"20", 9.5}, {"10", 4.25}}}});
  const std::vector<dataset::Query> claims{{"q1", "first", "{}"}, {"q3", "unranked", "{}"}, {"q2", "second", "{}"}};
  const auto inputs = verification::inputs_from_run(claims, run, sentences, 1, "run.trec");
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[0].claim_id, "q1");
  EXPECT_EQ(inputs[0].claim, "first");
  ASSERT_EQ(inputs[0].documents.size(), 1u);
  EXPECT_EQ(inputs[0].documents[0].doc_id, "20");
  EXPECT_EQ(inputs[0].documents[0].retrieval_rank, 1u);
  EXPECT_EQ(inputs[0].documents[0].retrieval_score, 9.5);
  EXPECT_EQ(inputs[1].claim_id, "q3");
  EXPECT_TRUE(inputs[1].documents.empty());
  EXPECT_EQ(inputs[2].claim_id, "q2");
  ASSERT_EQ(inputs[2].documents.size(), 1u);
  EXPECT_EQ(inputs[2].documents[0].doc_id, "10");

  const auto deeper = verification::inputs_from_run(claims, run, sentences, 5, "run.trec");
  ASSERT_EQ(deeper[0].documents.size(), 2u);
  EXPECT_EQ(deeper[0].documents[1].doc_id, "10");
  EXPECT_EQ(deeper[0].documents[1].retrieval_rank, 2u);
  EXPECT_EQ(deeper[0].documents[1].retrieval_score, 4.25);
}

TEST(VerifyInputs, ARankedDocumentAbsentFromTheCorpusIsADataErrorNamingTheRun) {
  const auto corpus = two_documents();
  const verification::DocumentSentences sentences(corpus);
  const auto run = make_run({{"q1", {{"99", 1.0}}}});
  const std::vector<dataset::Query> claims{{"q1", "claim", "{}"}};
  expect_error<DataError>([&] { (void)verification::inputs_from_run(claims, run, sentences, 3, "my.trec"); },
                          "my.trec: claim q1 ranks document 99, which the corpus does not hold");
}

TEST(VerifyClaims, AClaimWithoutDocumentsIsNeiWithItsReasonAndNotDropped) {
  const std::vector<VerificationInput> inputs{{"a", "aspirin lowers risk", {{"10", "", {"Aspirin lowers risk."}, 1, 2.0}}},
                                              {"b", "nothing found", {}}};
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, inputs);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].reason, "");
  EXPECT_EQ(verdicts[0].documents[0].label, Label::support);
  EXPECT_EQ(verdicts[1].claim_id, "b");
  EXPECT_TRUE(verdicts[1].documents.empty());
  EXPECT_EQ(verdicts[1].reason, "no retrieved abstract");
  EXPECT_TRUE(verification::not_enough_evidence(verdicts[1]));
}

/// Returns one verdict too few: a broken implementation the checks must catch.
class DroppingVerifier : public verification::ClaimVerifier {
 public:
  [[nodiscard]] std::vector<verification::ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override {
    auto verdicts = OverlapVerifier{}.verify(inputs);
    verdicts.pop_back();
    return verdicts;
  }
  void save(const fs::path&) const override {}
};

TEST(VerifyClaims, AVerifierThatDropsAClaimIsAnInternalError) {
  const std::vector<VerificationInput> inputs{{"a", "x", {}}, {"b", "y", {}}};
  expect_error<InternalError>([&] { (void)verification::verify_claims(DroppingVerifier{}, inputs); },
                              "returned 1 verdicts for 2 claims");
}

TEST(VerifyClaims, TruncatedSentencesAreCountedOverEveryDocument) {
  // 13 tokens > 12: truncated; the other sentences are short.
  const std::string long_sentence = "one two three four five six seven eight nine ten eleven twelve thirteen.";
  const std::vector<VerificationInput> inputs{
      {"a", "claim", {{"1", "", {long_sentence, "short one."}, 1, 1.0}, {"2", "", {long_sentence}, 2, 0.5}}},
      {"b", "claim", {{"1", "", {"short."}, 1, 1.0}}}};
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, inputs);
  EXPECT_EQ(verdicts[0].documents[0].truncated_sentences, 1u);
  EXPECT_EQ(verification::truncated_sentence_count(verdicts), 2u);
}

}  // namespace
}  // namespace claimrag
