// The free-text verifier's rule for short evidence (VerificationOptions::free_text_short_evidence):
// evidence of at most max_sentences distinct sentences is judged with its own θ and γ, longer
// evidence as before, and the probabilities never change.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "claimrag/verification/verification_pairs.hpp"
#include "support/temp_folder.hpp"
#include "support/toy_verification.hpp"

using namespace claimrag::verification;
using claimrag::testing::toy_data;
using claimrag::testing::toy_options;

namespace {

/// The toy free-text options with τ and θ fixed, so that only the rule can differ.
VerificationOptions fixed_options() {
  VerificationOptions options = toy_options();
  options.tau_grid = {0.3};
  options.nei_threshold_grid = {0.5};
  return options;
}

/// Each toy claim against three pieces of its document: its evidence sentence alone, the same
/// sentence three times, and that sentence followed by another one.
std::vector<VerificationInput> shaped_inputs(const VerifierTrainingData& data) {
  std::vector<VerificationInput> inputs;
  for (const auto& item : data.claims) {
    const EvidenceDocument& document = item.input.documents.front();
    const std::string& evidence = document.sentences[1];
    for (const std::vector<std::string>& sentences :
         {std::vector<std::string>{evidence}, std::vector<std::string>{evidence, evidence, evidence},
          std::vector<std::string>{evidence, document.sentences[3]}}) {
      inputs.push_back({item.input.claim_id, item.input.claim, {{document.doc_id, document.title, sentences, 0, 0.0}}});
    }
  }
  return inputs;
}

Label rule_label(const std::array<double, label_count>& p, double theta, double ratio) {
  if (p[2] >= theta) return Label::not_enough_info;
  return p[1] > ratio * p[0] ? Label::contradict : Label::support;
}

}  // namespace

TEST(ShortEvidenceRule, EvidenceOfOneDistinctSentenceIsJudgedByItsOwnThresholdAndRatio) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  const auto inputs = shaped_inputs(data);
  const VerificationOptions plain = fixed_options();
  const auto before = train_claim_verifier(data, plain)->verify(inputs);

  VerificationOptions shaped = plain;
  shaped.free_text_short_evidence = {1, 1.0, 0.5, ContradictCue::always};  // θ 1: never NOT_ENOUGH_INFO unless certain
  const auto verifier = train_claim_verifier(data, shaped);
  const auto after = verifier->verify(inputs);
  ASSERT_EQ(after.size(), inputs.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const DocumentVerdict& was = before[i].documents.at(0);
    const DocumentVerdict& is = after[i].documents.at(0);
    EXPECT_EQ(is.probabilities, was.probabilities) << "the rule moves no probability";
    const bool one_distinct_sentence = i % 3 != 2;  // alone, or repeated: read once
    EXPECT_EQ(is.short_evidence, one_distinct_sentence) << inputs[i].claim;
    EXPECT_FALSE(was.short_evidence);
    if (one_distinct_sentence) {
      EXPECT_EQ(is.nei_threshold, 1.0);
      EXPECT_EQ(is.contradict_ratio, 0.5);
      EXPECT_EQ(is.label, rule_label(is.probabilities, 1.0, 0.5)) << inputs[i].claim;
    } else {
      EXPECT_EQ(is.nei_threshold, 0.5);
      EXPECT_FALSE(is.contradict_ratio.has_value());
      EXPECT_EQ(is.label, was.label);
      EXPECT_EQ(is.label, rule_label(is.probabilities, 0.5, 1.0));
    }
    changed += is.label != was.label;
  }
  EXPECT_GE(changed, 1u) << "no single sentence changed its verdict: the case does not test the rule";
  // `verify --pairs` says which rule judged a pair.
  EXPECT_EQ(pair_verdict_json(inputs[0], after[0]).value("short_evidence", false), true);
  EXPECT_FALSE(pair_verdict_json(inputs[2], after[2]).contains("short_evidence"));

  // The file keeps the rule and judges as before; asked for without it, it is refused. Its key is
  // written only when the rule is on, so models trained without it keep their files and keys.
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "short.safetensors";
  verifier->save(file);
  const auto loaded = load_claim_verifier(file, &shaped)->verify(inputs);
  for (std::size_t i = 0; i < inputs.size(); ++i) EXPECT_EQ(loaded[i].documents.at(0).label, after[i].documents[0].label);
  EXPECT_THROW(load_claim_verifier(file, &plain), claimrag::DataError);
  EXPECT_EQ(options_text(plain).find("short_evidence"), std::string::npos);
  EXPECT_NE(options_text(shaped).find("\"free_text_short_evidence\""), std::string::npos);

  // The other settings ignore it.
  data.setting = VerifierSetting::oracle;
  const auto oracle_plain = train_claim_verifier(data, plain)->verify(inputs);
  const auto oracle_shaped = train_claim_verifier(data, shaped)->verify(inputs);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    EXPECT_EQ(oracle_shaped[i].documents.at(0).label, oracle_plain[i].documents.at(0).label);
    EXPECT_FALSE(oracle_shaped[i].documents[0].short_evidence);
  }
}

TEST(ShortEvidenceRule, ItsCueDecidesWhenItsRatioApplies) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  const auto inputs = shaped_inputs(data);
  VerificationOptions options = fixed_options();
  // γ so small that every verdict with a cue is CONTRADICT; without a cue cue_required says SUPPORT.
  // Negation is the only cue counted (every toy claim ends in a number its evidence lacks).
  options.free_text_short_evidence = {1, 1.0, 1e-6, ContradictCue::cue_required};
  options.free_text_conflict_cues = {"negation"};
  const auto verdicts = train_claim_verifier(data, options)->verify(inputs);
  std::size_t with_cue = 0, without_cue = 0;
  for (std::size_t i = 0; i < inputs.size(); i += 3) {  // the sentences alone
    const DocumentVerdict& verdict = verdicts[i].documents.at(0);
    ASSERT_TRUE(verdict.conflict_cues.has_value());
    if (verdict.label == Label::not_enough_info) continue;
    if (verdict.conflict_cues->empty()) {
      ++without_cue;
      EXPECT_EQ(verdict.label, Label::support) << inputs[i].claim;
    } else {
      ++with_cue;
      EXPECT_EQ(verdict.label, Label::contradict) << inputs[i].claim;
    }
  }
  // The toy claims alternate "reduces" and "does not reduce" against "reduces": both kinds occur.
  EXPECT_GE(with_cue, 1u);
  EXPECT_GE(without_cue, 1u);
}

TEST(ShortEvidenceRule, CrossValidationJudgesShortDocumentsByTheRule) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  const VerificationOptions plain = fixed_options();
  TrainingReport plain_report;
  (void)train_claim_verifier(data, plain, &plain_report);
  // Every toy document has four sentences: a rule for at most three leaves the score alone, a
  // rule for at most four that always says NOT_ENOUGH_INFO (θ 0) leaves nothing to score.
  VerificationOptions three = plain;
  three.free_text_short_evidence = {3, 0.0, 1.0, ContradictCue::always};
  VerificationOptions four = three;
  four.free_text_short_evidence.max_sentences = 4;
  TrainingReport three_report, four_report;
  (void)train_claim_verifier(data, three, &three_report);
  (void)train_claim_verifier(data, four, &four_report);
  const std::string f1 = "label_only_f1";
  EXPECT_EQ(three_report.cross_validation.at(f1), plain_report.cross_validation.at(f1));
  EXPECT_GT(plain_report.cross_validation.at(f1), 0.0);
  EXPECT_EQ(four_report.cross_validation.at(f1), 0.0);
}

TEST(ShortEvidenceRule, AModelFileWhoseRuleWasEditedIsRefusedNamingTheFile) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  VerificationOptions options = fixed_options();
  options.free_text_short_evidence = {1, 0.75, 0.5, ContradictCue::always};
  claimrag::testing::TempFolder folder;
  const auto good = folder.path() / "good.safetensors";
  train_claim_verifier(data, options)->save(good);
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  // Edits of the same length, so that the file's header stays well formed: only the rule is
  // wrong. The file's checksums catch the edit before the rule is read (the rule's own checks
  // guard the options a configuration passes: ItsNumbersAreChecked), and no model is loaded.
  for (const auto& [from, to] : {std::pair<std::string, std::string>{R"(\"nei_threshold\":0.75)", R"(\"nei_threshold\":7.75)"},
                                 {R"(\"contradict_ratio\":0.5)", R"(\"contradict_ratio\":0.0)"},
                                 {R"(\"contradict_cue\":\"always\")", R"(\"contradict_cue\":\"alwayz\")"}}) {
    const std::size_t at = bytes.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    std::string edited = bytes;
    edited.replace(at, from.size(), to);
    const auto file = folder.path() / "broken.safetensors";
    std::ofstream(file, std::ios::binary) << edited;
    try {
      (void)load_claim_verifier(file);
      ADD_FAILURE() << "loaded a model whose rule reads " << to;
    } catch (const claimrag::DataError& error) {
      EXPECT_NE(std::string(error.what()).find("broken.safetensors"), std::string::npos) << error.what();
    }
  }
}

TEST(ShortEvidenceRule, ItsNumbersAreChecked) {
  EXPECT_EQ(short_evidence_problem({1, 0.84, 0.15, ContradictCue::with_cue}), "");
  EXPECT_NE(short_evidence_problem({1, 1.5, 0.15, ContradictCue::always}), "");
  EXPECT_NE(short_evidence_problem({1, 0.84, 0.0, ContradictCue::always}), "");
  EXPECT_NE(short_evidence_problem({1, 0.84, 11.0, ContradictCue::always}), "");
}
