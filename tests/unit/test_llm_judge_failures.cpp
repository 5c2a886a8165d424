// A pair the verifier could not judge (DocumentVerdict::failure, as the LLM judge gives it) is
// written as "failed" and counted by every system that reads verdicts, never taken for a
// judgement: verify's pair lines and predictions, grounding's claims, sufficiency's pair scores
// and interrogation's built-in responder.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/grounding/claim_judgement.hpp"
#include "claimrag/grounding/ground.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/interrogation/pair.hpp"
#include "claimrag/interrogation/probe.hpp"
#include "claimrag/sufficiency/pair_scoring.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"
#include "claimrag/verification/prediction.hpp"
#include "claimrag/verification/verification_pairs.hpp"
#include "support/temp_folder.hpp"

namespace cv = claimrag::verification;
using cv::Label;

namespace {

/// Supports every claim with certainty, citing its first sentence, except a claim containing
/// "unjudged", which fails with the reason "the answer holds no label".
class PartlyFailingVerifier final : public cv::ClaimVerifier {
 public:
  [[nodiscard]] std::vector<cv::ClaimVerdict> verify(std::span<const cv::VerificationInput> inputs) const override {
    std::vector<cv::ClaimVerdict> verdicts;
    for (const auto& input : inputs) {
      cv::ClaimVerdict verdict{input.claim_id, {}, {}};
      for (const auto& document : input.documents) {
        if (input.claim.find("unjudged") != std::string::npos) {
          verdict.documents.push_back(cv::failed_verdict(document, "the answer holds no label"));
          continue;
        }
        cv::DocumentVerdict judged;
        judged.doc_id = document.doc_id;
        judged.label = Label::support;
        judged.probabilities = {1.0, 0.0, 0.0};
        judged.rationale = {0};
        for (std::size_t s = 0; s < document.sentences.size(); ++s) judged.sentence_scores.push_back({s, s == 0 ? 1.0 : 0.0});
        verdict.documents.push_back(judged);
      }
      verdicts.push_back(std::move(verdict));
    }
    return verdicts;
  }
  void save(const std::filesystem::path&) const override {}
};

cv::VerificationInput input(const std::string& id, const std::string& claim) {
  return {id, claim, {{id, "", {"First sentence.", "Second sentence."}, 0, 0.0}}};
}

}  // namespace

TEST(LlmJudgeFailures, AFailedVerdictIsNotEnoughInfoWithCertaintyAndItsReason) {
  const cv::EvidenceDocument document{"d", "", {"a.", "b."}, 0, 0.0};
  const auto verdict = cv::failed_verdict(document, "HTTP status 500");
  EXPECT_EQ(verdict.label, Label::not_enough_info);
  EXPECT_EQ(verdict.probabilities, (std::array<double, 3>{0.0, 0.0, 1.0}));
  EXPECT_EQ(verdict.failure, "HTTP status 500");
  ASSERT_EQ(verdict.sentence_scores.size(), 2U);  // every sentence scored, as verify_claims checks
  EXPECT_EQ(verdict.sentence_scores[1].index, 1U);
}

TEST(LlmJudgeFailures, VerifyWritesFailedOnPairLinesAndPredictionsAndReadsItBack) {
  const PartlyFailingVerifier verifier;
  const std::vector<cv::VerificationInput> inputs{input("p1", "judged claim"), input("p2", "unjudged claim")};
  const auto verdicts = verifier.verify(inputs);
  EXPECT_FALSE(cv::pair_verdict_json(inputs[0], verdicts[0]).contains("failed"));
  const auto failed_line = cv::pair_verdict_json(inputs[1], verdicts[1]);
  EXPECT_EQ(failed_line["failed"], "the answer holds no label");
  EXPECT_EQ(failed_line["label"], "NOT_ENOUGH_INFO");

  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "predictions.jsonl";
  std::vector<cv::ClaimPrediction> predictions{cv::to_prediction(verdicts[0], &inputs[0]), cv::to_prediction(verdicts[1], &inputs[1])};
  cv::write_predictions(predictions, file);
  const auto read = cv::read_predictions(file);
  ASSERT_EQ(read.size(), 2U);
  EXPECT_FALSE(read[0].documents[0].failure.has_value());
  EXPECT_EQ(read[1].documents[0].failure, "the answer holds no label");
  EXPECT_EQ(read[1], predictions[1]);
}

TEST(LlmJudgeFailures, GroundingListsUnjudgedPassagesAndTheySupportNothing) {
  const PartlyFailingVerifier verifier;
  const cv::VerificationInput failing = input("a#0", "an unjudged claim");
  const auto verdict = verifier.verify(std::span(&failing, 1)).front();
  const claimrag::grounding::GroundingThresholds thresholds{0.5, 0.5, true};
  const auto judgement = claimrag::grounding::judge_claim(failing, verdict, thresholds);
  EXPECT_EQ(judgement.label, claimrag::grounding::ClaimLabel::irrelevant);
  EXPECT_EQ(judgement.support, 0.0);
  EXPECT_EQ(judgement.judged_passages, 1U);
  ASSERT_EQ(judgement.failed_passages.size(), 1U);
  EXPECT_EQ(judgement.failed_passages[0].first, "a#0");

  claimrag::grounding::GroundedAnswer answer;
  answer.id = "a";
  claimrag::grounding::GroundedClaim claim;
  claim.span.text = "An unjudged claim.";
  claim.span.end = claim.span.text.size();
  claim.judgement = judgement;
  answer.claims.push_back(std::move(claim));
  const auto line = claimrag::grounding::grounded_answer_json(answer);
  EXPECT_EQ(line["claims"][0]["failed"]["a#0"], "the answer holds no label");
}

TEST(LlmJudgeFailures, SufficiencyKeepsWhichPassagesWereNotJudged) {
  const PartlyFailingVerifier verifier;
  claimrag::sufficiency::Example judged, unjudged;
  judged.id = judged.claim_id = "e1";
  judged.claim = "A judged claim.";
  judged.evidence = {"Some passage.", "Another passage."};
  unjudged.id = unjudged.claim_id = "e2";
  unjudged.claim = "An unjudged claim.";
  unjudged.evidence = {"Some passage.", "  ", "Another passage."};  // the blank one is dropped before judging
  const auto scored = claimrag::sufficiency::score_examples(verifier, {judged, unjudged});
  ASSERT_EQ(scored.size(), 2U);
  EXPECT_TRUE(scored[0].failed.empty());
  ASSERT_EQ(scored[1].failed.size(), 2U);
  EXPECT_EQ(scored[1].failed[0].first, 0U);
  EXPECT_EQ(scored[1].failed[1].first, 2U);  // indices into the example's evidence, as given
  EXPECT_EQ(scored[1].pairs[0].neutral, 1.0);
}

TEST(LlmJudgeFailures, TheBuiltinResponderCountsAnUnjudgedPairAsFailedAnswers) {
  const PartlyFailingVerifier verifier;
  claimrag::interrogation::BuiltinResponder responder(verifier, {.temperature = 0.0, .seed = 1});
  claimrag::interrogation::InterrogationPair good, bad;
  good.id = good.claim_id = "good";
  good.evidence = {"good", "", {"A sentence."}, 0, 0.0};
  bad.id = bad.claim_id = "bad";
  bad.evidence = {"bad", "", {"A sentence."}, 0, 0.0};
  claimrag::interrogation::Probe probe;
  probe.id = "o";
  probe.original = true;
  const std::vector<claimrag::interrogation::ProbeRequest> requests{{&good, &probe, "a judged claim", "Is it true?"},
                                                                     {&bad, &probe, "an unjudged claim", "Is it true?"}};
  const auto answers = responder.respond(requests, 2);
  EXPECT_EQ(answers[0], (std::vector<std::string>{"Yes", "Yes"}));
  EXPECT_EQ(answers[1], (std::vector<std::string>{"", ""}));
  EXPECT_EQ(responder.failures(), 2U);
  EXPECT_EQ(responder.failure(requests[0], 0), "");
  EXPECT_EQ(responder.failure(requests[1], 1), "the answer holds no label");
}
