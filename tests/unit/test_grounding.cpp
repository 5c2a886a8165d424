// Claim-level grounding: the labelling rule, recomposition, the answers file's bad input, the
// metrics and the choice rule, on values worked out by hand (OverlapVerifier's rules:
// a passage sharing ≥ half the claim's tokens is SUPPORT (0.7, 0.2, 0.1), or CONTRADICT
// (0.2, 0.7, 0.1) when that sentence holds "not"; otherwise NEI (0.1, 0.1, 0.8)).

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/grounding/answers_file.hpp"
#include "claimrag/grounding/evaluation.hpp"
#include "claimrag/grounding/ground.hpp"
#include "overlap_verifier.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::grounding {
namespace {

using testing::expect_error;
using testing::OverlapVerifier;
using testing::TempFolder;
using verification::EvidenceDocument;
using verification::Label;

TEST(GroundingRule, LabelsByTheStrongerSideAndTheThresholds) {
  const GroundingThresholds t{0.6, 0.5};
  EXPECT_EQ(label_of(0.7, 0.2, t), ClaimLabel::supported);
  EXPECT_EQ(label_of(0.7, 0.7, t), ClaimLabel::conflicting);   // a tie goes to conflict
  EXPECT_EQ(label_of(0.55, 0.2, t), ClaimLabel::irrelevant);   // support below τ_s
  EXPECT_EQ(label_of(0.4, 0.45, t), ClaimLabel::irrelevant);   // conflict below τ_c
  EXPECT_EQ(label_of(0.8, 0.6, t), ClaimLabel::supported);     // refuted, but supported more strongly
  EXPECT_EQ(label_of(0.0, 0.0, {0.0, 0.0}), ClaimLabel::conflicting);
}

TEST(GroundingRule, AContradictRatioBelowOneAsksSupportToOutweighContradictionByAMargin) {
  const GroundingThresholds t{0.2, 0.1, false, 0.4};
  EXPECT_EQ(label_of(0.5, 0.19, t), ClaimLabel::supported);    // 0.19 < 0.4 × 0.5
  EXPECT_EQ(label_of(0.5, 0.2, t), ClaimLabel::conflicting);   // 0.2 ≥ 0.4 × 0.5 and ≥ τ_c: supported under γ 1
  EXPECT_EQ(label_of(0.5, 0.2, {0.2, 0.1}), ClaimLabel::supported);
  EXPECT_EQ(label_of(0.5, 0.05, t), ClaimLabel::supported);
  EXPECT_EQ(label_of(0.3, 0.15, {0.2, 0.2, false, 0.4}), ClaimLabel::irrelevant);  // outweighed, but c below τ_c
  EXPECT_EQ(label_of(0.15, 0.01, t), ClaimLabel::irrelevant);  // support below τ_s
  // γ above 1 lets a claim stay kept under a stronger contradiction.
  EXPECT_EQ(label_of(0.5, 0.6, {0.2, 0.1, false, 1.5}), ClaimLabel::supported);
}

TEST(GroundingRule, CitesEveryPassageAtTheThresholdMostProbableFirst) {
  verification::VerificationInput input{"c", "aspirin lowers risk", {{"d1", "", {"Unrelated text."}, 0, 0}, {"d2", "", {"Aspirin lowers risk.", "x"}, 0, 0}}};
  verification::ClaimVerdict verdict{"c", {}, {}};
  verdict.documents.push_back({"d1", Label::support, {0.65, 0.2, 0.15}, {0}, {{0, 0.3}}, 0, std::nullopt, {}});
  verdict.documents.push_back({"d2", Label::support, {0.9, 0.05, 0.05}, {0}, {{0, 0.95}, {1, 0.1}}, 0, std::nullopt, {}});
  const auto judgement = judge_claim(input, verdict, {0.6, 0.5});
  EXPECT_EQ(judgement.label, ClaimLabel::supported);
  EXPECT_DOUBLE_EQ(judgement.confidence, 0.9);
  EXPECT_DOUBLE_EQ(judgement.conflict, 0.2);
  ASSERT_EQ(judgement.citations.size(), 2u);
  EXPECT_EQ(judgement.citations[0].doc_id, "d2");
  ASSERT_EQ(judgement.citations[0].sentences.size(), 1u);
  EXPECT_EQ(judgement.citations[0].sentences[0].text, "Aspirin lowers risk.");
  EXPECT_DOUBLE_EQ(judgement.citations[0].sentences[0].score, 0.95);
  EXPECT_EQ(judgement.citations[1].doc_id, "d1");
  EXPECT_TRUE(judge_claim(input, verdict, {0.95, 0.5}).citations.empty());  // irrelevant cites nothing
  EXPECT_DOUBLE_EQ(judge_claim(input, verdict, {0.95, 0.5}).confidence, 0.1);
}

TEST(GroundingRule, AVerdictOfNotEnoughInfoGivesNoSupportWhenTheVerdictGates) {
  // d1: P(SUPPORT) 0.45 but the verifier's verdict is NEI (P(NEI) 0.5 ≥ its θ); d2: SUPPORT 0.3.
  verification::VerificationInput input{"c", "aspirin lowers risk", {{"d1", "", {"Aspirin is a drug."}, 0, 0}, {"d2", "", {"Aspirin lowers risk."}, 0, 0}}};
  verification::ClaimVerdict verdict{"c", {}, {}};
  verdict.documents.push_back({"d1", Label::not_enough_info, {0.45, 0.05, 0.5}, {0}, {{0, 0.4}}, 0, 0.5, {}});
  verdict.documents.push_back({"d2", Label::support, {0.3, 0.2, 0.5}, {0}, {{0, 0.9}}, 0, 0.6, {}});
  // Ungated (the seed's rule): s = 0.45 from d1, both passages cited at τ_s 0.25.
  const auto ungated = judge_claim(input, verdict, {0.25, 0.5});
  EXPECT_DOUBLE_EQ(ungated.support, 0.45);
  EXPECT_EQ(ungated.citations.size(), 2u);
  // Gated: d1 supports nothing; s = 0.3 from d2, the only citation.
  const auto gated = judge_claim(input, verdict, {0.25, 0.5, true});
  EXPECT_EQ(gated.label, ClaimLabel::supported);
  EXPECT_DOUBLE_EQ(gated.support, 0.3);
  ASSERT_EQ(gated.citations.size(), 1u);
  EXPECT_EQ(gated.citations[0].doc_id, "d2");
  // Gated at τ_s 0.35: d2 is below it, d1 does not count: irrelevant, where the seed's rule keeps it.
  EXPECT_EQ(judge_claim(input, verdict, {0.35, 0.5, true}).label, ClaimLabel::irrelevant);
  EXPECT_EQ(judge_claim(input, verdict, {0.35, 0.5}).label, ClaimLabel::supported);
  // Conflict is never gated: an NEI verdict with P(CONTRADICT) ≥ τ_c still drops the claim.
  verdict.documents[0].probabilities = {0.05, 0.4, 0.55};
  EXPECT_EQ(judge_claim(input, verdict, {0.5, 0.35, true}).label, ClaimLabel::conflicting);
}

TEST(GroundingRule, APassageWithoutRationaleIsCitedByItsBestScoredSentence) {
  // The verifier calls the passage NOT_ENOUGH_INFO and selects no sentence; ungated, its
  // P(SUPPORT) keeps the claim, and the citation shows the sentence its selector scored highest.
  verification::VerificationInput input{"c", "aerobic exercise lowers blood pressure",
                                        {{"d1", "", {"Patients were adults.", "Aerobic training lowered blood pressure.", "Follow-up."}, 0, 0}}};
  verification::ClaimVerdict verdict{"c", {}, {}};
  verdict.documents.push_back({"d1", Label::not_enough_info, {0.43, 0.06, 0.51}, {}, {{0, 0.02}, {1, 0.09}, {2, 0.09}}, 0, 0.5, {}});
  const auto judgement = judge_claim(input, verdict, {0.19, 0.05, false, 0.4});
  EXPECT_EQ(judgement.label, ClaimLabel::supported);
  ASSERT_EQ(judgement.citations.size(), 1u);
  ASSERT_EQ(judgement.citations[0].sentences.size(), 1u);
  EXPECT_EQ(judgement.citations[0].sentences[0].index, 1u);  // the earliest of the two best
  EXPECT_EQ(judgement.citations[0].sentences[0].text, "Aerobic training lowered blood pressure.");
  // Gated, the same passage supports nothing: the claim is conflicting at τ_c 0.05, and its
  // conflict citation shows no sentence (the best-scored one agrees with the claim), and at a τ_c
  // above its P(CONTRADICT) nothing is cited.
  const auto conflicting = judge_claim(input, verdict, {0.19, 0.05, true, 0.4});
  EXPECT_EQ(conflicting.label, ClaimLabel::conflicting);
  ASSERT_EQ(conflicting.citations.size(), 1u);
  EXPECT_TRUE(conflicting.citations[0].sentences.empty());
  const auto gated = judge_claim(input, verdict, {0.19, 0.1, true, 0.4});
  EXPECT_EQ(gated.label, ClaimLabel::irrelevant);
  EXPECT_TRUE(gated.citations.empty());
}

AnswerToGround answer(std::string id, std::string text, std::vector<std::string> passages) {
  AnswerToGround item{std::move(id), std::move(text), {}, {}, {}};
  for (std::size_t p = 0; p < passages.size(); ++p) item.context.push_back({"p" + std::to_string(p), "", {passages[p]}, 0, 0});
  return item;
}

TEST(Grounding, KeepsSupportedClaimsInOrderAndNeverDropsAnAnswer) {
  const OverlapVerifier verifier;
  const std::vector<AnswerToGround> answers{
      answer("a", "Aspirin lowers stroke risk.  Coffee cures cancer. Statins lower cholesterol.",
             {"Aspirin lowers stroke risk in adults.", "Coffee does not cure cancer.", "Statins lower cholesterol levels."}),
      answer("b", "   ", {"Anything."}),
      answer("c", "Aspirin lowers stroke risk.", {}),
      answer("d", "Mars has two moons.", {"Aspirin lowers stroke risk."})};
  const auto grounded = ground_answers(verifier, answers, {0.5, 0.5});
  ASSERT_EQ(grounded.size(), 4u);
  EXPECT_EQ(grounded[0].id, "a");
  ASSERT_EQ(grounded[0].claims.size(), 3u);
  EXPECT_EQ(grounded[0].claims[0].judgement.label, ClaimLabel::supported);
  EXPECT_EQ(grounded[0].claims[1].judgement.label, ClaimLabel::conflicting);
  EXPECT_EQ(grounded[0].claims[1].judgement.citations.at(0).doc_id, "p1");
  EXPECT_EQ(grounded[0].claims[2].judgement.label, ClaimLabel::supported);
  EXPECT_EQ(grounded[0].kept_answer, "Aspirin lowers stroke risk.  Statins lower cholesterol.");
  EXPECT_TRUE(grounded[0].partial_before);
  EXPECT_FALSE(grounded[0].partial_after);
  EXPECT_FALSE(grounded[0].refused);
  EXPECT_EQ(grounded[1].kept_answer, kIDontKnow);
  EXPECT_EQ(grounded[1].reason, "empty answer");
  EXPECT_TRUE(grounded[1].claims.empty());
  EXPECT_EQ(grounded[2].kept_answer, kIDontKnow);
  EXPECT_EQ(grounded[2].reason, "empty context");
  EXPECT_EQ(grounded[2].claims.at(0).judgement.label, ClaimLabel::irrelevant);
  EXPECT_EQ(grounded[3].reason, "no supported claim");
  const auto json = grounded_answer_json(grounded[0]);
  EXPECT_EQ(json["claims"][1]["begin"], 29);
  EXPECT_EQ(json["claims"][1]["label"], "conflicting");
  EXPECT_EQ(json["claims"][1]["kept"], false);
  EXPECT_EQ(json["partial_hallucination"]["before"], true);
}

dataset::Corpus corpus_of(const std::vector<std::pair<std::string, std::string>>& documents) {
  dataset::Corpus corpus;
  for (const auto& [id, text] : documents) {
    corpus.position.emplace(id, static_cast<std::uint32_t>(corpus.documents.size()));
    corpus.documents.push_back({id, "", text});
  }
  return corpus;
}

TEST(AnswersFile, ReadsIdsInlinePassagesAndCorpusDocuments) {
  TempFolder folder;
  const auto corpus = corpus_of({{"d1", "First sentence. Second sentence."}});
  const ContextPassages passages(corpus);
  const auto path = folder.write("answers.jsonl",
                                 "{\"id\": 3, \"answer\": \"A b.\", \"context\": [\"d1\", {\"id\": \"x\", \"text\": \"One. Two.\"}]}\n\n"
                                 "{\"id\": \"e\", \"answer\": \"\", \"context\": []}\n");
  const auto answers = read_answers(path, {&passages, nullptr, 10});
  ASSERT_EQ(answers.size(), 2u);
  EXPECT_EQ(answers[0].id, "3");
  ASSERT_EQ(answers[0].context.size(), 2u);
  EXPECT_EQ(answers[0].context[0].sentences, (std::vector<std::string>{"First sentence.", "Second sentence."}));
  EXPECT_EQ(answers[0].context[1].doc_id, "x");
  EXPECT_EQ(answers[0].context[1].sentences, (std::vector<std::string>{"One.", "Two."}));
  EXPECT_TRUE(answers[1].context.empty());
}

TEST(AnswersFile, BadInputNamesFileAndLine) {
  TempFolder folder;
  const auto corpus = corpus_of({{"d1", "Text."}});
  const ContextPassages passages(corpus);
  const ContextSources sources{&passages, nullptr, 10};
  const auto read = [&](const std::string& contents) {
    const auto path = folder.write("bad.jsonl", contents);
    return [path, &sources] { (void)read_answers(path, sources); };
  };
  const std::string good = "{\"id\": \"a\", \"answer\": \"x\", \"context\": [\"d1\"]}\n";
  expect_error<DataError>(read(good + "{\"id\": \"b\", \"answer\": \"x\", \"context\": [\"d9\"]}\n"),
                          "bad.jsonl:2: context document \"d9\" is not in the corpus");
  expect_error<DataError>(read(good + good), "bad.jsonl:2: duplicate id \"a\" (first on line 1)");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"caf\xC3\"}\n"), "bad.jsonl:1: malformed JSON");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"x\", \"id\": \"b\", \"context\": [\"d1\"]}\n"),
                          "bad.jsonl:1: the key \"id\" appears twice");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"x\", \"contexts\": [\"d1\"]}\n"),
                          "bad.jsonl:1: unknown field \"contexts\" (expected id, answer, context)");
  expect_error<DataError>(read(good + "{\"id\": \"b\", \"answer\": \"x\", \"context\": [\"d1\", {\"text\": \"T.\"}]}\n"),
                          "bad.jsonl:2: \"context\"[1]: \"id\" is missing");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"x\", \"context\": [{\"id\": \"p\", \"txt\": \"T.\"}]}\n"),
                          "bad.jsonl:1: \"context\"[0]: unknown field \"txt\" (expected id, title, text)");
  expect_error<DataError>(read("\n"), "bad.jsonl: holds no JSON object");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"x\"}\n"), "bad.jsonl:1: no \"context\" and no --run");
  expect_error<DataError>(read("{\"id\": \"a\", \"answer\": \"x\", \"context\": [{\"id\": \"p\", \"text\": \" \"}]}\n"),
                          "bad.jsonl:1: \"context\"[0] \"text\" is empty");
  expect_error<DataError>(read("{\"id\": \"a\", \"context\": []}\n"), "bad.jsonl:1: \"answer\" is missing");
  const ContextSources no_corpus{nullptr, nullptr, 10};
  const auto path = folder.write("ids.jsonl", good);
  expect_error<DataError>([&] { (void)read_answers(path, no_corpus); }, "ids.jsonl:1: context document \"d1\" needs a corpus (--data)");
}

TEST(AnswersFile, ContextFromARunAndAnAnswerTheRunLacks) {
  TempFolder folder;
  const auto corpus = corpus_of({{"d1", "Text one."}, {"d2", "Text two."}});
  const ContextPassages passages(corpus);
  run::Run run;
  run.add({"a", {{"d2", 2.0}, {"d1", 1.0}}});
  const auto path = folder.write("answers.jsonl", "{\"id\": \"a\", \"answer\": \"x\"}\n{\"id\": \"b\", \"answer\": \"y\"}\n");
  const auto answers = read_answers(path, {&passages, &run, 1});
  ASSERT_EQ(answers.size(), 2u);
  ASSERT_EQ(answers[0].context.size(), 1u);
  EXPECT_EQ(answers[0].context[0].doc_id, "d2");
  EXPECT_TRUE(answers[1].context.empty());
  EXPECT_EQ(answers[1].empty_context_reason, "no retrieved passage");
}

// Two answers: (S supported 0.9, C conflicting-by-score 0.2/0.8) and (S 0.3 irrelevant, N 0.9 supported).
std::vector<ScoredAnswer> scored_fixture() {
  return {{{0.9, 0.05, Label::support}, {0.2, 0.8, Label::contradict}},
          {{0.3, 0.1, Label::support}, {0.9, 0.0, Label::not_enough_info}}};
}

TEST(GroundingMetrics, MethodsByGoldAndByTheVerifiersLabels) {
  const auto answers = scored_fixture();
  MethodSettings settings{{0.5, 0.5}, 0.6};
  const auto score_only = evaluate_method(Method::score_only, answers, settings);
  EXPECT_DOUBLE_EQ(score_only.at("support_rate"), 0.5);
  EXPECT_DOUBLE_EQ(score_only.at("conflict_rate"), 0.25);
  EXPECT_DOUBLE_EQ(score_only.at("partial_hallucinations"), 1);
  EXPECT_DOUBLE_EQ(score_only.at("recall"), 1);
  EXPECT_DOUBLE_EQ(score_only.at("verifier_support_rate"), 0.5);
  EXPECT_DOUBLE_EQ(score_only.at("verifier_conflict_rate"), 0.25);
  EXPECT_DOUBLE_EQ(score_only.at("verifier_partial_hallucinations"), 1);
  const auto grounding = evaluate_method(Method::grounding, answers, settings);
  EXPECT_DOUBLE_EQ(grounding.at("claims_kept"), 2);
  EXPECT_DOUBLE_EQ(grounding.at("precision"), 0.5);
  EXPECT_DOUBLE_EQ(grounding.at("recall"), 0.5);
  EXPECT_DOUBLE_EQ(grounding.at("conflict_rate"), 0);
  EXPECT_DOUBLE_EQ(grounding.at("nei_rate"), 0.5);
  EXPECT_DOUBLE_EQ(grounding.at("partial_hallucinations"), 0);
  EXPECT_DOUBLE_EQ(grounding.at("verifier_support_rate"), 1);
  EXPECT_DOUBLE_EQ(grounding.at("over_refusals"), 0);
  const auto refusal = evaluate_method(Method::refusal_all, answers, settings);
  EXPECT_DOUBLE_EQ(refusal.at("refusals"), 2);
  EXPECT_DOUBLE_EQ(refusal.at("over_refusals"), 2);
  EXPECT_DOUBLE_EQ(refusal.at("over_refusal_rate"), 1);
  EXPECT_DOUBLE_EQ(refusal.at("support_rate"), 0);
  // Means of s: 0.55 and 0.6; τ_m 0.6 keeps the second answer whole.
  const auto mean = evaluate_method(Method::refusal_mean, answers, settings);
  EXPECT_DOUBLE_EQ(mean.at("claims_kept"), 2);
  EXPECT_DOUBLE_EQ(mean.at("over_refusals"), 1);
  EXPECT_DOUBLE_EQ(mean.at("recall"), 0.5);
  const std::vector<std::size_t> second{1};
  EXPECT_DOUBLE_EQ(evaluate_method(Method::score_only, answers, settings, second).at("answers"), 1);
}

TEST(GroundingMetrics, ChoiceMeetsBothTargetsElseLowestConflictAtTheRecall) {
  using M = std::map<std::string, double>;
  const auto m = [](double recall, double conflict, double support) {
    return M{{"recall", recall}, {"conflict_rate", conflict}, {"support_rate", support}, {"claims_kept", 1}};
  };
  const std::vector<M> both{m(0.9, 0.1, 0.5), m(0.7, 0.01, 0.6), m(0.8, 0.02, 0.5), m(0.3, 0.0, 0.9)};
  EXPECT_EQ(choose_candidate(both, {0.02, 0.6}), 2u);
  const std::vector<M> recall_only{m(0.9, 0.1, 0.5), m(0.65, 0.05, 0.6), m(0.3, 0.0, 0.9)};
  EXPECT_EQ(choose_candidate(recall_only, {0.02, 0.6}), 1u);
  const std::vector<M> neither{m(0.4, 0.1, 0.5), m(0.5, 0.2, 0.6)};
  EXPECT_EQ(choose_candidate(neither, {0.02, 0.6}), 1u);
  const auto settings = choose_settings(scored_fixture(), std::vector<double>{0.5, 0.95}, {0.02, 0.5});
  EXPECT_DOUBLE_EQ(settings.thresholds.support, 0.5);
}

}  // namespace
}  // namespace claimrag::grounding

namespace claimrag::grounding {
namespace {

TEST(GroundingConfig, ReadsTheSectionAndRefusesUnknownKeysAndBadValues) {
  TempFolder folder;
  const auto good = folder.write("good.json", R"({"grounding": {"support_threshold": 0.3, "conflict_threshold": 0.7, "contradict_ratio": 0.4,
                                                                "verdict_gates_support": false, "rounds": 2, "paper": "p.json"}})");
  const auto config = experiment::load_config(good);
  EXPECT_DOUBLE_EQ(config.grounding.support_threshold, 0.3);
  EXPECT_DOUBLE_EQ(config.grounding.conflict_threshold, 0.7);
  EXPECT_DOUBLE_EQ(config.grounding.contradict_ratio, 0.4);
  EXPECT_FALSE(config.grounding.verdict_gates_support);
  const auto absent = experiment::load_config(folder.write("absent.json", R"({"grounding": {}})"));
  EXPECT_DOUBLE_EQ(absent.grounding.contradict_ratio, 1.0);  // the seed's rule
  EXPECT_TRUE(absent.grounding.verdict_gates_support);
  for (const char* ratio : {"0", "-0.5", "10.5"}) {
    expect_error<UsageError>(
        [&] { (void)experiment::load_config(folder.write("r.json", std::string(R"({"grounding": {"contradict_ratio": )") + ratio + "}}")); },
        "grounding.contradict_ratio must be in (0, 10]");
  }
  EXPECT_EQ(config.grounding.rounds, 2u);
  EXPECT_EQ(config.grounding.max_claims, 4u);
  EXPECT_EQ(config.grounding.paper, (folder.path() / "p.json").lexically_normal().string());
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("a.json", R"({"grounding": {"tau": 0.3}})")); }, "tau");
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("b.json", R"({"grounding": {"support_threshold": 1.5}})")); },
                           "must be in [0, 1]");
  expect_error<UsageError>([&] { (void)experiment::load_config(folder.write("c.json", R"({"grounding": {"min_claims": 5}})")); },
                           "grounding.max_claims must be >= min_claims");
}

}  // namespace
}  // namespace claimrag::grounding
