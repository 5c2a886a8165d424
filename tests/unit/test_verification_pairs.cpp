// `verify --pairs` input and output, and the --claim report, on answers worked out by hand from
// the OverlapVerifier's rules (overlap_verifier.hpp).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/verification/verdict_report.hpp"
#include "claimrag/verification/verification_pairs.hpp"
#include "claimrag/verification/verify_inputs.hpp"
#include "claimrag/verification/wordless_claims.hpp"
#include "overlap_verifier.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace claimrag {
namespace {

using testing::expect_error;
using testing::OverlapVerifier;
using testing::TempFolder;
using verification::VerificationInput;

TEST(VerificationPairs, ReadsPairsInInputOrderWithTheEvidenceSplitIntoSentences) {
  TempFolder folder;
  const auto path = folder.write("pairs.jsonl",
                                 "{\"id\": \"z\", \"claim\": \"Aspirin lowers risk.\", \"evidence\": \"Aspirin lowers heart risk. It is cheap.\"}\n"
                                 "\n"
                                 "{\"id\": 7, \"claim\": \"Coffee causes heart disease.\", \"evidence\": \"Coffee is not linked to heart disease.\"}\n");
  const auto inputs = verification::read_verification_pairs(path);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].claim_id, "z");
  EXPECT_EQ(inputs[0].claim, "Aspirin lowers risk.");
  ASSERT_EQ(inputs[0].documents.size(), 1u);
  EXPECT_EQ(inputs[0].documents[0].doc_id, "z");
  EXPECT_EQ(inputs[0].documents[0].sentences, (std::vector<std::string>{"Aspirin lowers heart risk.", "It is cheap."}));
  EXPECT_EQ(inputs[1].claim_id, "7");
  EXPECT_EQ(inputs[1].documents[0].sentences, (std::vector<std::string>{"Coffee is not linked to heart disease."}));
}

/// Each bad line, written after a good first line and a blank second one, so that the line
/// number in the message has to count both.
void expect_bad_line(const std::string& bad_line, const std::string& reason) {
  TempFolder folder;
  const auto path = folder.write("pairs.jsonl", "{\"id\": \"a\", \"claim\": \"c\", \"evidence\": \"e\"}\n\n" + bad_line + "\n");
  expect_error<DataError>([&] { (void)verification::read_verification_pairs(path); }, path.string() + ":3: " + reason);
}

TEST(VerificationPairs, EveryBadLineIsADataErrorNamingFileAndLine) {
  expect_bad_line("{\"id\": \"b\", \"claim\": \"c\"", "malformed JSON");
  expect_bad_line("[\"b\", \"c\", \"e\"]", "expected a JSON object");
  expect_bad_line("{\"claim\": \"c\", \"evidence\": \"e\"}", "\"id\" is missing");
  expect_bad_line("{\"id\": \"b\", \"evidence\": \"e\"}", "\"claim\" is missing");
  expect_bad_line("{\"id\": \"b\", \"claim\": \"c\"}", "\"evidence\" is missing");
  expect_bad_line("{\"id\": \"\", \"claim\": \"c\", \"evidence\": \"e\"}", "\"id\" \"\" is empty");
  expect_bad_line("{\"id\": \" \", \"claim\": \"c\", \"evidence\": \"e\"}", "\"id\" \" \" contains a space");
  expect_bad_line("{\"id\": \"b\", \"claim\": \"\", \"evidence\": \"e\"}", "\"claim\" is empty");
  expect_bad_line("{\"id\": \"b\", \"claim\": \"c\", \"evidence\": \" \\n\\t\"}", "\"evidence\" is empty");
  expect_bad_line("{\"id\": \"b\", \"claim\": 5, \"evidence\": \"e\"}", "\"claim\" is not a string");
  expect_bad_line("{\"id\": \"b\", \"claim\": \"c\", \"evidence\": [\"e\"]}", "\"evidence\" is not a string");
  expect_bad_line("{\"id\": true, \"claim\": \"c\", \"evidence\": \"e\"}", "\"id\" is neither a string nor an integer");
  expect_bad_line("{\"id\": \"a\", \"claim\": \"c2\", \"evidence\": \"e2\"}", "duplicate id \"a\" (first on line 1)");
  // A field the format does not define (a misspelt one would otherwise be dropped without a word).
  expect_bad_line("{\"id\": \"b\", \"claim\": \"c\", \"evidence\": \"e\", \"source\": \"x\"}",
                  "unknown field \"source\" (expected id, claim, evidence)");
}

TEST(VerificationPairs, AMissingFileIsADataErrorNamingIt) {
  TempFolder folder;
  expect_error<DataError>([&] { (void)verification::read_verification_pairs(folder.path() / "absent.jsonl"); },
                          "absent.jsonl: no such file");
}

TEST(VerificationPairs, OneOutputLinePerPairInInputOrder) {
  TempFolder folder;
  const std::vector<VerificationInput> inputs{
      {"z", "Aspirin lowers risk.", {{"z", "", {"Aspirin lowers heart risk in adults.", "It is cheap."}, 0, 0.0}}},
      {"7", "Coffee causes heart disease.", {{"7", "", {"Coffee is not linked to heart disease."}, 0, 0.0}}},
      {"a", "Smoking causes cancer.", {{"a", "", {"The weather was fine."}, 0, 0.0}}}};
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, inputs);
  const auto out = folder.path() / "sub" / "verdicts.jsonl";
  verification::write_pair_verdicts(out, inputs, verdicts);
  // z: all 3 claim tokens in sentence 0 (score 1), none in sentence 1: SUPPORT citing 0.
  // 7: coffee, heart, disease of 4 claim tokens (0.75) in a sentence with "not": CONTRADICT.
  // a: no claim token in the evidence: NEI, nothing cited.
  EXPECT_EQ(testing::slurp(out),
            "{\"id\":\"z\",\"label\":\"SUPPORT\",\"probabilities\":{\"SUPPORT\":0.7,\"CONTRADICT\":0.2,\"NOT_ENOUGH_INFO\":0.1},"
            "\"rationale\":[{\"sentence\":0,\"text\":\"Aspirin lowers heart risk in adults.\",\"score\":1.0}],\"truncated_sentences\":0}\n"
            "{\"id\":\"7\",\"label\":\"CONTRADICT\",\"probabilities\":{\"SUPPORT\":0.2,\"CONTRADICT\":0.7,\"NOT_ENOUGH_INFO\":0.1},"
            "\"rationale\":[{\"sentence\":0,\"text\":\"Coffee is not linked to heart disease.\",\"score\":0.75}],\"truncated_sentences\":0}\n"
            "{\"id\":\"a\",\"label\":\"NOT_ENOUGH_INFO\",\"probabilities\":{\"SUPPORT\":0.1,\"CONTRADICT\":0.1,\"NOT_ENOUGH_INFO\":0.8},"
            "\"rationale\":[],\"truncated_sentences\":0}\n");
}

VerificationInput aspirin_claim() {
  return {"claim",
          "Aspirin lowers risk.",
          {{"10", "Aspirin trial", {"Aspirin lowers heart risk.", "It is cheap."}, 1, 7.5},
           {"20", "Coffee", {"Coffee is fine."}, 2, 3.0}}};
}

TEST(VerdictReport, TextGivesEachAbstractsLabelProbabilitiesAndCitedSentences) {
  const auto input = aspirin_claim();
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  EXPECT_EQ(verification::claim_verdict_text(input, verdicts[0]),
            "Claim: Aspirin lowers risk.\n"
            "\n[1] 10: Aspirin trial\n"
            "    SUPPORT  P(SUPPORT) 0.700  P(CONTRADICT) 0.200  P(NOT_ENOUGH_INFO) 0.100\n"
            "    cites sentence 0 (score 1.000): Aspirin lowers heart risk.\n"
            "\n[2] 20: Coffee\n"
            "    NOT_ENOUGH_INFO  P(SUPPORT) 0.100  P(CONTRADICT) 0.100  P(NOT_ENOUGH_INFO) 0.800\n"
            "\nVerdict: SUPPORT by 1 abstract (10)\n");
}

TEST(VerdictReport, NotEnoughEvidenceIsSaidExplicitly) {
  auto input = aspirin_claim();
  input.documents.erase(input.documents.begin());
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  const std::string text = verification::claim_verdict_text(input, verdicts[0]);
  EXPECT_NE(text.find("\nVerdict: not enough evidence (0 of 1 abstracts support or contradict the claim)\n"), std::string::npos)
      << text;

  const VerificationInput nothing{"claim", "Zebras fly.", {}};
  const auto none = verification::verify_claims(OverlapVerifier{}, std::span(&nothing, 1));
  EXPECT_EQ(verification::claim_verdict_text(nothing, none[0]),
            "Claim: Zebras fly.\n\nVerdict: not enough evidence (no retrieved abstract)\n");
}

TEST(VerdictReport, JsonHoldsTheSameAsTheText) {
  const auto input = aspirin_claim();
  const auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  const auto json = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_EQ(json["claim"], "Aspirin lowers risk.");
  EXPECT_EQ(json["not_enough_evidence"], false);
  EXPECT_FALSE(json.contains("reason"));
  ASSERT_EQ(json["documents"].size(), 2u);
  const auto& first = json["documents"][0];
  EXPECT_EQ(first["doc_id"], "10");
  EXPECT_EQ(first["title"], "Aspirin trial");
  EXPECT_EQ(first["rank"], 1);
  EXPECT_EQ(first["retrieval_score"], 7.5);
  EXPECT_EQ(first["label"], "SUPPORT");
  EXPECT_EQ(first["probabilities"]["CONTRADICT"], 0.2);
  EXPECT_EQ(first["rationale"], nlohmann::json::parse(R"([{"sentence": 0, "text": "Aspirin lowers heart risk.", "score": 1.0}])"));
  EXPECT_EQ(json["documents"][1]["label"], "NOT_ENOUGH_INFO");
  EXPECT_EQ(json["documents"][1]["rationale"], nlohmann::json::array());
  EXPECT_EQ(json["truncated_sentences"], 0);

  const VerificationInput nothing{"claim", "Zebras fly.", {}};
  const auto none = verification::verify_claims(OverlapVerifier{}, std::span(&nothing, 1));
  const auto empty = verification::claim_verdict_json(nothing, none[0]);
  EXPECT_EQ(empty["not_enough_evidence"], true);
  EXPECT_EQ(empty["reason"], "no retrieved abstract");
  EXPECT_TRUE(empty["documents"].empty());
}

TEST(VerdictReport, TheNeiRuleStandsBesideEachVerdictOfAThresholdVerifier) {
  const auto input = aspirin_claim();
  auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  verdicts[0].documents[1].nei_threshold = 0.5;
  const std::string text = verification::claim_verdict_text(input, verdicts[0]);
  EXPECT_NE(text.find("    NOT_ENOUGH_INFO  P(SUPPORT) 0.100  P(CONTRADICT) 0.100  P(NOT_ENOUGH_INFO) 0.800\n"
                      "    (NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) >= 0.500, else the likelier of SUPPORT and CONTRADICT)\n"),
            std::string::npos)
      << text;
  const auto json = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_EQ(json["documents"][1]["nei_threshold"], 0.5);
  EXPECT_FALSE(json["documents"][0].contains("nei_threshold"));
}

TEST(VerdictReport, AContradictRatioIsPartOfTheRuleBesideTheVerdict) {
  const auto input = aspirin_claim();
  auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  verdicts[0].documents[1].nei_threshold = 0.8;
  verdicts[0].documents[1].contradict_ratio = 0.25;
  const std::string text = verification::claim_verdict_text(input, verdicts[0]);
  EXPECT_NE(text.find("    (NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) >= 0.800, else CONTRADICT when P(CONTRADICT) > 0.250 x "
                      "P(SUPPORT), else SUPPORT)\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("the likelier"), std::string::npos) << text;
  const auto json = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_EQ(json["documents"][1]["contradict_ratio"], 0.25);
  EXPECT_FALSE(json["documents"][0].contains("contradict_ratio"));
}

TEST(VerdictReport, TheShortEvidenceRuleSaysSoBesideTheVerdict) {
  const auto input = aspirin_claim();
  auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  verdicts[0].documents[1].nei_threshold = 0.84;
  verdicts[0].documents[1].short_evidence = true;
  verdicts[0].documents[0].nei_threshold = 0.5;
  const std::string text = verification::claim_verdict_text(input, verdicts[0]);
  EXPECT_NE(text.find("    (evidence this short: NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) >= 0.840, else"), std::string::npos) << text;
  EXPECT_NE(text.find("    (NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) >= 0.500, else"), std::string::npos) << text;
  const auto json = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_EQ(json["documents"][1]["short_evidence"], true);
  EXPECT_FALSE(json["documents"][0].contains("short_evidence"));
}

TEST(VerdictReport, TheConflictCuesAreShownWhenTheRuleReadsThem) {
  const auto input = aspirin_claim();
  auto verdicts = verification::verify_claims(OverlapVerifier{}, std::span(&input, 1));
  verdicts[0].documents[1].nei_threshold = 0.8;
  verdicts[0].documents[1].contradict_ratio = 0.25;
  verdicts[0].documents[1].conflict_cues = std::vector<std::string>{"negation", "number"};
  verdicts[0].documents[0].nei_threshold = 0.8;
  verdicts[0].documents[0].contradict_ratio = 0.25;
  verdicts[0].documents[0].conflict_cues = std::vector<std::string>{};
  const std::string text = verification::claim_verdict_text(input, verdicts[0]);
  EXPECT_NE(text.find("    (the ratio needs a conflict cue; here: negation, number)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    (the ratio needs a conflict cue; here: none)\n"), std::string::npos) << text;
  const auto json = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_EQ(json["documents"][1]["conflict_cues"], (std::vector<std::string>{"negation", "number"}));
  EXPECT_EQ(json["documents"][0]["conflict_cues"], std::vector<std::string>{});
  verdicts[0].documents[0].conflict_cues.reset();
  const auto without = nlohmann::json::parse(verification::claim_verdict_json(input, verdicts[0]).dump());
  EXPECT_FALSE(without["documents"][0].contains("conflict_cues"));
}

TEST(WordlessClaims, AreNotEnoughInfoWithOneReasonAndNeverReachTheVerifier) {
  const auto guarded = verification::guard_wordless_claims(std::make_unique<OverlapVerifier>());
  const std::vector<VerificationInput> inputs{
      {"w", "?!... ;;; !!!", {{"d", "", {"Aspirin lowers risk.", "More text."}, 0, 0.0}}},
      {"z", "Aspirin lowers heart risk.", {{"d", "", {"Aspirin lowers heart risk in adults."}, 0, 0.0}}},
      {"e", " -- ", {}}};
  const auto verdicts = verification::verify_claims(*guarded, inputs);
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0].reason, verification::kClaimWithoutWord);
  ASSERT_EQ(verdicts[0].documents.size(), 1u);
  EXPECT_EQ(verdicts[0].documents[0].label, verification::Label::not_enough_info);
  EXPECT_EQ(verdicts[0].documents[0].probabilities, (std::array<double, 3>{0, 0, 1}));
  EXPECT_EQ(verdicts[0].documents[0].sentence_scores.size(), 2u);
  EXPECT_EQ(verdicts[1].documents[0].label, verification::Label::support);  // judged by the verifier behind the guard
  EXPECT_TRUE(verdicts[1].reason.empty());
  EXPECT_EQ(verdicts[2].reason, verification::kClaimWithoutWord);
}

}  // namespace
}  // namespace claimrag
