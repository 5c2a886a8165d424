// The verifier over an NLI checkpoint: label names mapped by name, the premises of each unit,
// the document rule on hand-made distributions, the rule's choice by grouped cross-validation,
// and the verifier on the committed tiny checkpoints against the model's own probabilities.

#include <gtest/gtest.h>

#include <fstream>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/verification/checkpoint_rule_selection.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "pretrained_fixture.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::verification {
namespace {

constexpr auto S = Label::support;
constexpr auto C = Label::contradict;
constexpr auto N = Label::not_enough_info;

TEST(CheckpointLabels, ThreeLabelSetsMapByNameInAnyOrder) {
  EXPECT_EQ(map_nli_labels({"contradiction", "entailment", "neutral"}, "config.json"), (std::vector<Label>{C, S, N}));
  EXPECT_EQ(map_nli_labels({"ENTAILMENT", "Neutral", "CONTRADICTION"}, "config.json"), (std::vector<Label>{S, N, C}));
}

TEST(CheckpointLabels, TwoLabelModelsPutNotEntailmentOnNei) {
  EXPECT_EQ(map_nli_labels({"entailment", "not_entailment"}, "c.json"), (std::vector<Label>{S, N}));
  EXPECT_EQ(map_nli_labels({"Non-Entailment", "entailment"}, "c.json"), (std::vector<Label>{N, S}));
}

TEST(CheckpointLabels, OtherSetsAreRefusedListingTheLabels) {
  for (const auto& labels : std::vector<std::vector<std::string>>{{"LABEL_0", "LABEL_1", "LABEL_2"},
                                                                  {"entailment", "entailment", "neutral"},
                                                                  {"entailment", "contradiction"},
                                                                  {"entailment", "neutral", "contradiction", "other"}}) {
    try {
      (void)map_nli_labels(labels, "/m/config.json");
      ADD_FAILURE() << "accepted " << labels.front();
    } catch (const DataError& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("/m/config.json"), std::string::npos) << message;
      for (const auto& label : labels) EXPECT_NE(message.find("'" + label + "'"), std::string::npos) << message;
    }
  }
}

TEST(CheckpointPremises, SentenceWindowAndAbstract) {
  const EvidenceDocument document{"d", "t", {"A.", "B.", "C."}};
  EXPECT_EQ(document_premises(document, PremiseUnit::sentence), (std::vector<std::string>{"A.", "B.", "C."}));
  EXPECT_EQ(document_premises(document, PremiseUnit::window), (std::vector<std::string>{"A. B.", "A. B. C.", "B. C."}));
  EXPECT_EQ(document_premises(document, PremiseUnit::abstract), (std::vector<std::string>{"A. B. C."}));
  EXPECT_TRUE(document_premises({"e", "t", {}}, PremiseUnit::sentence).empty());
  EXPECT_EQ(parse_premise_unit("window"), PremiseUnit::window);
  EXPECT_THROW((void)parse_premise_unit("paragraph"), UsageError);
}

TEST(CheckpointRuleOnDocument, MostDecisivePremiseDecidesAndRationaleIsAboveThreshold) {
  const EvidenceDocument document{"d", "t", {"s0", "s1", "s2", "s3"}};
  // decisiveness max(P_S, P_C): 0.6, 0.2, 0.7 (contradiction), 0.6
  const std::vector<LabelDistribution> premises{{0.6, 0.1, 0.3}, {0.2, 0.1, 0.7}, {0.2, 0.7, 0.1}, {0.6, 0.2, 0.2}};
  const auto verdict = checkpoint_document_verdict(document, premises, {PremiseUnit::sentence, 0.5, 2}, 1);
  EXPECT_EQ(verdict.label, C);
  EXPECT_EQ(verdict.probabilities, premises[2]);
  EXPECT_EQ(verdict.rationale, (std::vector<std::size_t>{2, 0}));  // 0.7, then the earlier of the two 0.6
  ASSERT_EQ(verdict.sentence_scores.size(), 4U);
  EXPECT_DOUBLE_EQ(verdict.sentence_scores[1].score, 0.2);
  EXPECT_EQ(verdict.truncated_sentences, 1U);
  // Above every premise's decisiveness: NEI, no rationale, still the most decisive distribution.
  const auto undecided = checkpoint_document_verdict(document, premises, {PremiseUnit::sentence, 0.75, 3}, 0);
  EXPECT_EQ(undecided.label, N);
  EXPECT_TRUE(undecided.rationale.empty());
  EXPECT_EQ(undecided.probabilities, premises[2]);
}

TEST(CheckpointRuleOnDocument, AbstractPremiseSelectsNoSentence) {
  const EvidenceDocument document{"d", "t", {"s0", "s1"}};
  const std::vector<LabelDistribution> whole{{0.8, 0.1, 0.1}};
  const auto verdict = checkpoint_document_verdict(document, whole, {PremiseUnit::abstract, 0.5, 3}, 0);
  EXPECT_EQ(verdict.label, S);
  EXPECT_TRUE(verdict.rationale.empty());
  ASSERT_EQ(verdict.sentence_scores.size(), 2U);
  EXPECT_EQ(verdict.sentence_scores[0].score, 0.0);
}

LabelledInput labelled(const std::string& id, const std::string& doc, Label label, std::size_t rationale) {
  LabelledInput item;
  item.input = {id, "claim " + id, {{doc, "t", {"first", "second"}}}};
  const GoldDocument gold{label, {{rationale}}};
  item.gold = {gold};
  item.evidence[doc] = gold;
  item.family_doc_ids = {doc};
  return item;
}

TEST(CheckpointRuleChoice, BestPooledLabelRationaleF1WithTiesToTheEarlierThreshold) {
  // Claim a: SUPPORT by sentence 0; claim b: CONTRADICT by sentence 1 (two families, two folds).
  const std::vector<LabelledInput> claims{labelled("a", "da", S, 0), labelled("b", "db", C, 1)};
  PremiseJudgements judged;
  judged.distributions = {{{{0.7, 0.1, 0.2}, {0.1, 0.1, 0.8}}}, {{{0.2, 0.1, 0.7}, {0.1, 0.65, 0.25}}}};
  judged.truncated = {{0}, {0}};
  CheckpointRuleGrid grid;
  grid.premises = {PremiseUnit::sentence};
  grid.thresholds = {0.5, 0.6, 0.8};
  grid.folds = 2;
  const auto choice = choose_checkpoint_rule(claims, {{PremiseUnit::sentence, judged}}, grid);
  // 0.5 and 0.6 get both right (F1 1); 0.8 leaves both NEI (F1 0): the earlier of the tie wins.
  EXPECT_EQ(choice.rule.threshold, 0.5);
  EXPECT_DOUBLE_EQ(choice.label_rationale_f1, 1.0);
  EXPECT_DOUBLE_EQ(choice.cross_validated_label_rationale_f1, 1.0);
  ASSERT_EQ(choice.grid.size(), 3U);
  EXPECT_DOUBLE_EQ(choice.grid[2].label_rationale_f1, 0.0);
  ASSERT_EQ(choice.fold_choices.size(), 2U);
  EXPECT_THROW((void)choose_checkpoint_rule(claims, {}, grid), UsageError);
}

TEST(CheckpointVerifierFixture, ThreeLabelCheckpointFollowsTheModelsProbabilities) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("bert-classifier"));
  // The fixture's id2label: contradiction, entailment, neutral.
  EXPECT_EQ(checkpoint->label_of_id(), (std::vector<Label>{C, S, N}));
  const std::vector<std::string> sentences{"the cat sat", "a dog ran"};
  const std::vector<pretrained::TextInput> pairs{{sentences[0], "the cat"}, {sentences[1], "the cat"}};
  const auto raw = checkpoint->text_model().run(pairs, 0, 4, "test");
  const auto verifier = make_checkpoint_verifier(checkpoint, {{PremiseUnit::sentence, 0.01, 3}, 0, 4});
  const std::vector<VerificationInput> inputs{{"c1", "the cat", {{"d1", "t", sentences}}}};
  const auto verdicts = verifier->verify(inputs);
  ASSERT_EQ(verdicts.size(), 1U);
  const auto& document = verdicts[0].documents.at(0);
  // The most decisive sentence's softmax, re-indexed from the checkpoint's ids to SciFact's labels.
  std::size_t decisive = 0;
  double best = -1;
  std::vector<std::vector<double>> probabilities;
  for (std::size_t s = 0; s < 2; ++s) {
    probabilities.push_back(pretrained::softmax(raw.values[s]));
    const double d = std::max(probabilities[s][0], probabilities[s][1]);
    EXPECT_NEAR(document.sentence_scores[s].score, d, 1e-12);
    if (d > best) best = d, decisive = s;
  }
  EXPECT_NEAR(document.probabilities[0], probabilities[decisive][1], 1e-12);
  EXPECT_NEAR(document.probabilities[1], probabilities[decisive][0], 1e-12);
  EXPECT_NEAR(document.probabilities[2], probabilities[decisive][2], 1e-12);
  EXPECT_EQ(document.label, probabilities[decisive][0] > probabilities[decisive][1] ? C : S);
  EXPECT_EQ(document.rationale.front(), decisive);
  EXPECT_THROW(verifier->save("/tmp/never-written"), UsageError);
}

TEST(CheckpointVerifierFixture, TwoLabelCheckpointNeverContradicts) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("roberta-classifier-bf16"));
  EXPECT_EQ(checkpoint->label_of_id(), (std::vector<Label>{S, N}));
  const auto verifier = make_checkpoint_verifier(checkpoint, {{PremiseUnit::window, 0.01, 3}, 0, 4});
  const std::vector<VerificationInput> inputs{{"c1", "hello world", {{"d1", "t", {"hello there", "world peace", "x"}}}}};
  const auto verdict = verifier->verify(inputs).at(0).documents.at(0);
  EXPECT_EQ(verdict.probabilities[1], 0.0);
  EXPECT_EQ(verdict.label, S);  // threshold 0.01: any entailment probability decides
  EXPECT_NEAR(verdict.probabilities[0] + verdict.probabilities[2], 1.0, 1e-12);
}

TEST(CheckpointVerifierFixture, NonClassifierFoldersAreRefusedNamingTheFolder) {
  for (const std::string name : {"bert-embedding-sharded", "bert-reranker-f16"}) {
    const auto folder = testing::fixture_checkpoint(name);
    try {
      const NliCheckpoint checkpoint(folder);
      ADD_FAILURE() << name << " accepted";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(folder.string()), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("NLI classification head"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace claimrag::verification
