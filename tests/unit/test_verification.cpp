#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/linear/softmax_regression.hpp"
#include "claimrag/verification/claim_folds.hpp"
#include "claimrag/verification/cross_fitted.hpp"
#include "claimrag/verification/rationale_selection.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "support/temp_folder.hpp"
#include "support/toy_verification.hpp"

using namespace claimrag::verification;

TEST(VerificationFolds, FamiliesSharingADocumentStayTogether) {
  // Claims 0 and 1 share B; claims 2 and 4 share C; claim 3 is alone. Families of two go first
  // (the one with the earlier claim to fold 0), then claim 3 to the emptier fold (a tie: fold 0).
  const std::vector<std::vector<std::string>> docs{{"A", "B"}, {"B"}, {"C"}, {"D"}, {"C", "E"}};
  EXPECT_EQ(family_folds(docs, 2), (std::vector<std::size_t>{0, 0, 1, 0, 1}));
  // A chain A-B, B-C ties all three claims together even though 0 and 2 share nothing.
  EXPECT_EQ(family_folds({{"A", "B"}, {"X"}, {"B", "C"}, {"C"}}, 2), (std::vector<std::size_t>{0, 1, 0, 0}));
  EXPECT_THROW(family_folds(docs, 1), claimrag::UsageError);
  // The families themselves: each claim's earliest connected claim.
  EXPECT_EQ(claim_families(docs), (std::vector<std::size_t>{0, 0, 2, 3, 2}));
  EXPECT_EQ(claim_families({{"A", "B"}, {"X"}, {"B", "C"}, {"C"}}), (std::vector<std::size_t>{0, 1, 0, 0}));
}

TEST(VerificationSelection, AtMostMaxSentencesAtOrAboveTau) {
  const std::vector<double> p{0.2, 0.9, 0.5, 0.9, 0.7};
  EXPECT_EQ(select_rationale(p, 0.5, 3), (std::vector<std::size_t>{1, 3, 4}));  // ties: earlier first
  EXPECT_EQ(select_rationale(p, 0.5, 5), (std::vector<std::size_t>{1, 3, 4, 2}));
  EXPECT_EQ(select_rationale(p, 0.8, 3), (std::vector<std::size_t>{1, 3}));
  EXPECT_TRUE(select_rationale(p, 0.95, 3).empty());
  EXPECT_EQ(best_sentences(p, 2), (std::vector<std::size_t>{1, 3}));
  EXPECT_THROW(select_rationale(p, 0.5, 0), claimrag::UsageError);
}

TEST(SoftmaxRegression, SeparatesThreeClusters) {
  using namespace claimrag::linear;
  RowMatrixXd X(9, 2);
  X << 3, 0, 3.2, 0.1, 2.9, -0.2, 0, 3, 0.1, 3.1, -0.2, 2.8, -3, -3, -2.8, -3.1, -3.1, -2.9;
  const std::vector<int> labels{0, 0, 0, 1, 1, 1, 2, 2, 2};
  SoftmaxRegressionOptions options;
  options.l2 = 1e-3;
  const auto model = fit_softmax_regression(X, labels, 3, options);
  EXPECT_TRUE(model.converged);
  const Eigen::MatrixXd p = model.predict_probabilities(X);
  for (Eigen::Index i = 0; i < 9; ++i) {
    EXPECT_NEAR(p.row(i).sum(), 1.0, 1e-12);
    EXPECT_GT(p(i, labels[static_cast<std::size_t>(i)]), 0.9) << "row " << i;
  }
  // At the optimum the gradient vanishes.
  EXPECT_LT(softmax_gradient(X, labels, model, options).norm(), 1e-6);
  EXPECT_THROW(fit_softmax_regression(X, std::vector<int>{0, 1, 2, 3, 0, 0, 0, 0, 0}, 3), claimrag::UsageError);
}

using claimrag::testing::inputs_of;
using claimrag::testing::toy_claim;
using claimrag::testing::toy_data;
using claimrag::testing::toy_options;

TEST(ClaimVerifier, VerdictsSaveLoadRoundTripAndThreadCounts) {
  const auto data = toy_data();
  const auto inputs = inputs_of(data);
  omp_set_num_threads(1);
  TrainingReport report;
  const auto verifier = train_claim_verifier(data, toy_options(), &report);
  const auto one = verifier->verify(inputs);
  omp_set_num_threads(2);
  const auto two = train_claim_verifier(data, toy_options())->verify(inputs);
  ASSERT_EQ(one.size(), inputs.size());
  EXPECT_EQ(one.back().reason, "no retrieved abstract");
  EXPECT_TRUE(one.back().documents.empty());
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "verifier.safetensors";
  verifier->save(file);
  const auto loaded = load_claim_verifier(file)->verify(inputs);
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    ASSERT_EQ(one[c].documents.size(), loaded[c].documents.size());
    for (std::size_t d = 0; d < one[c].documents.size(); ++d) {
      EXPECT_EQ(one[c].documents[d].probabilities, loaded[c].documents[d].probabilities);
      EXPECT_EQ(one[c].documents[d].probabilities, two[c].documents[d].probabilities);
      EXPECT_EQ(one[c].documents[d].rationale, loaded[c].documents[d].rationale);
      EXPECT_EQ(one[c].documents[d].label, loaded[c].documents[d].label);
      EXPECT_NEAR(one[c].documents[d].probabilities[0] + one[c].documents[d].probabilities[1] +
                      one[c].documents[d].probabilities[2], 1.0, 1e-12);
      EXPECT_EQ(one[c].documents[d].sentence_scores.size(), 4u);
    }
  }
  // The rationale sentence is the one the selector learnt to prefer on the evidence documents.
  EXPECT_EQ(one[0].documents[0].rationale.front(), 1u);

  VerificationOptions other = toy_options();
  other.folds = 4;
  EXPECT_THROW(load_claim_verifier(file, &other), claimrag::DataError);
  const VerificationOptions same = toy_options();
  EXPECT_NO_THROW(load_claim_verifier(file, &same));

  std::string bytes = claimrag::io::read_file(file);
  bytes[bytes.size() - 3] = static_cast<char>(bytes[bytes.size() - 3] ^ 0x10);  // one bit of a tensor
  const auto damaged = folder.path() / "damaged.safetensors";
  std::ofstream(damaged, std::ios::binary) << bytes;
  EXPECT_THROW(load_claim_verifier(damaged), claimrag::DataError);
}

TEST(CrossFittedVerifier, EachClaimIsJudgedByTheModelThatHeldItsFoldOut) {
  const auto data = toy_data();
  const auto options = toy_options();
  const auto cross = cross_fit_verifier(data, options, 0.3, 0.5);
  ASSERT_EQ(cross.folds(), 3u);
  std::vector<VerificationInput> inputs;
  for (const auto& item : data.claims) inputs.push_back(item.input);
  const auto verdicts = cross.verify(inputs);
  ASSERT_EQ(verdicts.size(), inputs.size());
  VerificationOptions fixed = options;
  fixed.tau_grid = {0.3};
  fixed.nei_threshold_grid = {0.5};
  for (std::size_t fold = 0; fold < 3; ++fold) {
    VerifierTrainingData rest{{}, data.corpus_texts};
    for (const auto& item : data.claims) {
      if (cross.fold_of(item.input.claim_id) != fold) rest.claims.push_back(item);
    }
    ASSERT_LT(rest.claims.size(), data.claims.size());
    const auto held_out = train_claim_verifier(rest, fixed);
    for (std::size_t c = 0; c < inputs.size(); ++c) {
      if (cross.fold_of(inputs[c].claim_id) != fold) continue;
      const auto alone = held_out->verify(std::span(&inputs[c], 1));
      EXPECT_EQ(verdicts[c].documents.at(0).probabilities, alone.at(0).documents.at(0).probabilities) << "claim " << c;
    }
  }
  const std::vector<VerificationInput> unknown{{"not-a-training-claim", "aspirin", {}}};
  EXPECT_THROW((void)cross.verify(unknown), claimrag::UsageError);
  claimrag::testing::TempFolder folder;
  EXPECT_THROW(cross.save(folder.path() / "x.safetensors"), claimrag::UsageError);
  EXPECT_FALSE(std::filesystem::exists(folder.path() / "x.safetensors"));
}

TEST(ClaimVerifier, NegationAugmentationAddsTheNegatedClaimsRowsWithTheirLabels) {
  auto data = toy_data();
  TrainingReport plain;
  train_claim_verifier(data, toy_options(), &plain);
  // Each evidence document gives two rows (its predicted and its gold rationale), each NEI one row.
  EXPECT_EQ(plain.label_rows, 8u * 2 + 4u);
  VerificationOptions augmented = toy_options();
  augmented.negation_augmentation = true;
  TrainingReport report;
  const auto verifier = train_claim_verifier(data, augmented, &report);
  // Every toy claim is negatable: "reduces" is swapped (SUPPORT -> CONTRADICT), "does not reduce"
  // loses its negation (CONTRADICT -> SUPPORT), NEI stays NEI: twice the rows.
  EXPECT_EQ(report.label_rows, 2 * plain.label_rows);

  // A CONTRADICT claim negated by swapping a direction word gives no row: "increases" negated is
  // "decreases", which evidence of no effect contradicts as well.
  LabelledInput swapped = toy_claim(1);
  swapped.input.claim = "aspirin increases headache 1";
  data.claims[1] = swapped;
  train_claim_verifier(data, augmented, &report);
  EXPECT_EQ(report.label_rows, 2 * plain.label_rows - 2);

  // The option is part of the model file: asked for without it, the file is refused.
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "augmented.safetensors";
  verifier->save(file);
  EXPECT_NO_THROW(load_claim_verifier(file, &augmented));
  const VerificationOptions without = toy_options();
  EXPECT_THROW(load_claim_verifier(file, &without), claimrag::DataError);
}

TEST(ClaimVerifier, TheFreeTextContradictRatioDecidesBetweenSupportAndContradictAsDocumented) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  const auto inputs = inputs_of(data);
  // τ and θ fixed, so that γ cannot move what training chooses: only the rule differs.
  VerificationOptions likelier = toy_options();
  likelier.tau_grid = {0.3};
  likelier.nei_threshold_grid = {0.5};
  const auto plain = train_claim_verifier(data, likelier)->verify(inputs);
  // γ at half the largest P(CONTRADICT) / P(SUPPORT) of a SUPPORT verdict: that one must turn.
  double largest = 0;
  for (const auto& verdict : plain) {
    for (const auto& document : verdict.documents) {
      if (document.label == Label::support) largest = std::max(largest, document.probabilities[1] / document.probabilities[0]);
    }
  }
  ASSERT_GT(largest, 0);
  VerificationOptions weighed = likelier;
  weighed.free_text_contradict_ratio = largest / 2;
  const auto verifier = train_claim_verifier(data, weighed);
  const auto ratio = verifier->verify(inputs);
  std::size_t turned = 0;
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (std::size_t d = 0; d < plain[c].documents.size(); ++d) {
      const auto& before = plain[c].documents[d];
      const auto& after = ratio[c].documents.at(d);
      const auto& p = before.probabilities;
      EXPECT_EQ(after.probabilities, p);
      const Label nei = Label::not_enough_info;
      EXPECT_EQ(before.label, p[2] >= 0.5 ? nei : p[0] >= p[1] ? Label::support : Label::contradict);
      EXPECT_EQ(after.label, p[2] >= 0.5 ? nei : p[1] > largest / 2 * p[0] ? Label::contradict : Label::support);
      EXPECT_FALSE(before.contradict_ratio.has_value());
      EXPECT_EQ(after.contradict_ratio, largest / 2);
      turned += before.label == Label::support && after.label == Label::contradict;
    }
  }
  EXPECT_GE(turned, 1u);

  // The file keeps γ; asked for without it, the file is refused. Its key is written only when γ
  // is not 1, so a model trained without the option keeps its file and cache key.
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "weighed.safetensors";
  verifier->save(file);
  const auto loaded = load_claim_verifier(file, &weighed)->verify(inputs);
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (std::size_t d = 0; d < ratio[c].documents.size(); ++d) EXPECT_EQ(loaded[c].documents.at(d).label, ratio[c].documents[d].label);
  }
  EXPECT_THROW(load_claim_verifier(file, &likelier), claimrag::DataError);
  EXPECT_EQ(options_text(likelier).find("contradict_ratio"), std::string::npos);
  EXPECT_NE(options_text(weighed).find("\"free_text_contradict_ratio\""), std::string::npos);

  // The other settings decide by the likelier of the two whatever the option says.
  data.setting = VerifierSetting::oracle;
  const auto oracle = train_claim_verifier(data, weighed)->verify(inputs);
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    for (std::size_t d = 0; d < plain[c].documents.size(); ++d) {
      EXPECT_EQ(oracle[c].documents.at(d).label, plain[c].documents[d].label);
      EXPECT_FALSE(oracle[c].documents[d].contradict_ratio.has_value());
    }
  }
}

TEST(ClaimVerifier, NullAgainstEffectAddsOneLabelColumnThatTheFileRecords) {
  const auto data = toy_data();
  VerificationOptions with = toy_options();
  with.null_against_effect = true;
  const auto verifier = train_claim_verifier(data, with);
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "null.safetensors";
  verifier->save(file);
  EXPECT_NO_THROW(load_claim_verifier(file, &with));
  const VerificationOptions without = toy_options();
  EXPECT_THROW(load_claim_verifier(file, &without), claimrag::DataError);
  // Off, the options' text (a model's file and cache key) is what it was before the option.
  EXPECT_EQ(options_text(without).find("null_against_effect"), std::string::npos);
  EXPECT_NE(options_text(with).find("\"null_against_effect\":true"), std::string::npos);
}

namespace {

/// The verdicts of a free-text verifier trained on the toy claims with τ and θ fixed and γ tiny,
/// counting only negation as a conflict cue (every toy claim carries a number its evidence lacks).
std::vector<ClaimVerdict> cue_verdicts(ContradictCue cue, const std::vector<VerificationInput>& inputs, bool every_sentence = false) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  VerificationOptions options = toy_options();
  options.tau_grid = {0.3};
  options.nei_threshold_grid = {0.5};
  options.free_text_contradict_ratio = 1e-3;
  options.free_text_contradict_cue = cue;
  options.free_text_conflict_cues = {"negation"};
  options.free_text_cue_in_every_sentence = every_sentence;
  return train_claim_verifier(data, options)->verify(inputs);
}

}  // namespace

TEST(ClaimVerifier, UnderTheContradictCueAPairWithoutAConflictCueIsNeverContradictedByTheRatio) {
  const auto inputs = inputs_of(toy_data());
  const auto always = cue_verdicts(ContradictCue::always, inputs);
  const auto with_cue = cue_verdicts(ContradictCue::with_cue, inputs);
  const auto required = cue_verdicts(ContradictCue::cue_required, inputs);
  std::size_t vetoed = 0, cued = 0;
  for (std::size_t c = 0; c + 1 < inputs.size(); ++c) {
    const bool negated = inputs[c].claim.find(" not ") != std::string::npos;
    for (std::size_t d = 0; d < always[c].documents.size(); ++d) {
      const auto& p = always[c].documents[d].probabilities;
      const auto& loose = with_cue[c].documents.at(d);
      const auto& strict = required[c].documents.at(d);
      EXPECT_EQ(loose.probabilities, p);
      EXPECT_FALSE(always[c].documents[d].conflict_cues.has_value());
      ASSERT_TRUE(strict.conflict_cues.has_value());
      // The rationale's only negation can come from the claim: the toy evidence has none.
      EXPECT_EQ(*strict.conflict_cues, negated ? std::vector<std::string>{"negation"} : std::vector<std::string>{});
      if (p[2] >= 0.5) {
        EXPECT_EQ(strict.label, Label::not_enough_info);
        continue;
      }
      const Label by_ratio = p[1] > 1e-3 * p[0] ? Label::contradict : Label::support;
      const Label likelier = p[1] > p[0] ? Label::contradict : Label::support;
      EXPECT_EQ(always[c].documents[d].label, by_ratio);
      EXPECT_EQ(loose.label, negated ? by_ratio : likelier);
      EXPECT_EQ(strict.label, negated ? by_ratio : Label::support);
      vetoed += !negated && by_ratio == Label::contradict;
      cued += negated && by_ratio == Label::contradict;
    }
  }
  EXPECT_GE(vetoed, 1u);  // the cue changed verdicts, so the checks above can fail
  EXPECT_GE(cued, 1u);
}

TEST(ClaimVerifier, RepeatingASupportingSentenceAddsNoConflictCue) {
  const std::string support = "aspirin reduces headache pain in adults";
  VerificationInput once{"once", "aspirin reduces headache", {{"d", "t", {support, "the weather was sunny"}, 0, 0.0}}};
  VerificationInput repeated{"repeated", once.claim, {{"d", "t", {}, 0, 0.0}}};
  for (int k = 0; k < 20; ++k) repeated.documents[0].sentences.push_back(support);
  repeated.documents[0].sentences.push_back("the weather was sunny");
  // A negated sentence beside the supporting one: read together the rationale has a negation;
  // read sentence by sentence, the supporting one has none and vetoes the cue.
  VerificationInput mixed{"mixed", once.claim, {{"d", "t", {"aspirin does not reduce headache pain", support}, 0, 0.0}}};
  const std::vector<VerificationInput> inputs{once, repeated, mixed};
  for (const bool every_sentence : {false, true}) {
    const auto verdicts = cue_verdicts(ContradictCue::cue_required, inputs, every_sentence);
    EXPECT_EQ(verdicts[0].documents[0].conflict_cues, std::vector<std::string>{});
    EXPECT_EQ(verdicts[1].documents[0].conflict_cues, verdicts[0].documents[0].conflict_cues);
    EXPECT_EQ(verdicts[1].documents[0].label, verdicts[0].documents[0].label);
    EXPECT_NE(verdicts[1].documents[0].label, Label::contradict);
    const auto& rationale = verdicts[2].documents[0].rationale;
    ASSERT_EQ(rationale.size(), 2u);  // both sentences selected, so both are read
    EXPECT_EQ(verdicts[2].documents[0].conflict_cues,
              every_sentence ? std::vector<std::string>{} : std::vector<std::string>{"negation"});
  }
}

namespace {

/// A free-text verifier trained on the toy claims with `options`, saved and loaded again: it
/// loads when `options` are expected, is refused when `other` are, and judges as before.
void free_text_round_trip(const VerificationOptions& options, const VerificationOptions& other) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  const auto verifier = train_claim_verifier(data, options);
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "free_text.safetensors";
  verifier->save(file);
  EXPECT_THROW(load_claim_verifier(file, &other), claimrag::DataError);
  const auto inputs = inputs_of(data);
  const auto before = verifier->verify(inputs);
  const auto after = load_claim_verifier(file, &options)->verify(inputs);
  for (std::size_t c = 0; c + 1 < inputs.size(); ++c) {
    EXPECT_EQ(before[c].documents[0].probabilities, after[c].documents[0].probabilities);
    EXPECT_EQ(before[c].documents[0].rationale, after[c].documents[0].rationale);
  }
}

}  // namespace

TEST(ClaimVerifier, TheContradictCueOptionsAreInTheFileOnlyWhenSet) {
  const VerificationOptions plain = toy_options();
  VerificationOptions cued = plain;
  cued.free_text_contradict_cue = ContradictCue::cue_required;
  cued.free_text_conflict_cues = {"negation", "direction"};
  cued.free_text_cue_in_every_sentence = true;
  for (const char* key : {"free_text_contradict_cue", "free_text_conflict_cues", "free_text_cue_in_every_sentence"}) {
    EXPECT_EQ(options_text(plain).find(key), std::string::npos) << key;
    EXPECT_NE(options_text(cued).find(key), std::string::npos) << key;
  }
  free_text_round_trip(cued, plain);
  EXPECT_EQ(parse_contradict_cue("with_cue"), ContradictCue::with_cue);
  EXPECT_FALSE(parse_contradict_cue("sometimes").has_value());
}

namespace {

/// A free-text verifier trained on the toy claims with τ and θ fixed, judging by `aggregation`
/// under γ `ratio`.
std::unique_ptr<ClaimVerifier> aggregating_verifier(FreeTextAggregation aggregation, double ratio, TrainingReport* report = nullptr) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  VerificationOptions options = toy_options();
  options.tau_grid = {0.3};
  options.nei_threshold_grid = {0.5};
  options.free_text_contradict_ratio = ratio;
  options.free_text_aggregation = aggregation;
  return train_claim_verifier(data, options, report);
}

/// Each sentence of `input`'s one document as an input of its own.
std::vector<VerificationInput> sentences_alone(const VerificationInput& input) {
  std::vector<VerificationInput> alone;
  const EvidenceDocument& document = input.documents.front();
  for (const auto& sentence : document.sentences) {
    alone.push_back({input.claim_id, input.claim, {{document.doc_id, document.title, {sentence}, 0, 0.0}}});
  }
  return alone;
}

}  // namespace

TEST(ClaimVerifier, UnderStrongestSentenceADocumentTakesTheVerdictOfItsMostConfidentSentenceAlone) {
  const auto inputs = inputs_of(toy_data());
  for (const double ratio : {1.0, 1e-3}) {
    const auto verifier = aggregating_verifier(FreeTextAggregation::strongest_sentence, ratio);
    const auto verdicts = verifier->verify(inputs);
    const auto whole = aggregating_verifier(FreeTextAggregation::whole, ratio)->verify(inputs);
    std::size_t differ = 0, later = 0;
    for (std::size_t c = 0; c + 1 < inputs.size(); ++c) {
      const auto alone = verifier->verify(sentences_alone(inputs[c]));
      std::size_t best = 0;
      const auto confidence = [&](std::size_t s) {
        const auto& p = alone[s].documents.front().probabilities;
        return std::max(p[0], p[1]);
      };
      for (std::size_t s = 1; s < alone.size(); ++s) best = confidence(s) > confidence(best) ? s : best;
      const DocumentVerdict& verdict = verdicts[c].documents.front();
      const DocumentVerdict& strongest = alone[best].documents.front();
      EXPECT_EQ(verdict.probabilities, strongest.probabilities) << c;
      EXPECT_EQ(verdict.label, strongest.label) << c;
      // It cites that sentence first, then the sentences the selector picks in the whole document.
      const DocumentVerdict& read_whole = whole[c].documents.front();
      if (verdict.label != Label::not_enough_info) {
        ASSERT_FALSE(verdict.rationale.empty());
        EXPECT_EQ(verdict.rationale.front(), best) << c;
        for (std::size_t r = 1; r < verdict.rationale.size(); ++r) {
          EXPECT_NE(std::find(read_whole.rationale.begin(), read_whole.rationale.end(), verdict.rationale[r]), read_whole.rationale.end());
        }
      }
      ASSERT_EQ(verdict.sentence_scores.size(), read_whole.sentence_scores.size());
      for (std::size_t s = 0; s < verdict.sentence_scores.size(); ++s) {
        EXPECT_EQ(verdict.sentence_scores[s].score, read_whole.sentence_scores[s].score) << c;
      }
      differ += verdict.probabilities != read_whole.probabilities;
      later += best > 0;
    }
    EXPECT_GE(differ, 1u);  // the option judges otherwise than the whole document
    EXPECT_GE(later, 1u);   // and the strongest sentence is not always the first
    EXPECT_TRUE(verdicts.back().documents.empty());
  }
}

TEST(ClaimVerifier, UnderStrongestSentenceMoreSupportingSentencesNeverContradict) {
  const auto verifier = aggregating_verifier(FreeTextAggregation::strongest_sentence, 1.0);
  const std::string claim = "aspirin reduces headache 0";
  const std::string support = "aspirin reduces headache pain in adults";
  const auto judged = [&](const std::vector<std::string>& sentences) {
    return verifier->verify(std::vector<VerificationInput>{{"c", claim, {{"d", "t", sentences, 0, 0.0}}}}).front().documents.front();
  };
  const DocumentVerdict single = judged({support});
  ASSERT_EQ(single.label, Label::support);
  // The added sentences: those that alone are not CONTRADICT (the toy model calls some that).
  std::vector<std::string> others;
  for (const char* other : {"aspirin tablets were given to headache patients", "patients were enrolled in the study",
                            "the weather was sunny", "coffee was served to the nurses", "aspirin reduces headache pain"}) {
    if (judged({other}).label != Label::contradict) others.emplace_back(other);
  }
  ASSERT_GE(others.size(), 2u);
  std::vector<std::string> repeated(20, support);
  std::vector<std::string> appended{support};
  appended.insert(appended.end(), others.begin(), others.end());
  std::vector<std::string> cycled;
  for (std::size_t k = 0; k < 15; ++k) cycled.push_back(k % 2 == 0 ? support : others[0]);
  std::vector<std::string> before(others.begin(), others.end());
  before.push_back(support);
  EXPECT_EQ(judged(repeated).probabilities, single.probabilities);
  EXPECT_EQ(judged(repeated).rationale, single.rationale);
  for (const auto& sentences : {repeated, appended, cycled, before}) {
    const DocumentVerdict verdict = judged(sentences);
    EXPECT_NE(verdict.label, Label::contradict);
    // The supporting sentence alone is the strongest, wherever it stands.
    EXPECT_GE(std::max(verdict.probabilities[0], verdict.probabilities[1]), single.probabilities[0]);
  }
}

TEST(ClaimVerifier, TheFreeTextAggregationIsInTheFileOnlyWhenSetAndDrivesTheCrossValidation) {
  VerificationOptions whole = toy_options();
  VerificationOptions by_sentence = whole;
  by_sentence.free_text_aggregation = FreeTextAggregation::strongest_sentence;
  EXPECT_EQ(options_text(whole).find("free_text_aggregation"), std::string::npos);
  EXPECT_NE(options_text(by_sentence).find("\"free_text_aggregation\":\"strongest_sentence\""), std::string::npos);
  free_text_round_trip(by_sentence, whole);
  EXPECT_EQ(parse_free_text_aggregation("strongest_sentence"), FreeTextAggregation::strongest_sentence);
  EXPECT_FALSE(parse_free_text_aggregation("mean").has_value());
  // The cross-validation scores the verdicts of the sentences judged alone.
  TrainingReport whole_report, sentence_report;
  aggregating_verifier(FreeTextAggregation::whole, 1.0, &whole_report);
  aggregating_verifier(FreeTextAggregation::strongest_sentence, 1.0, &sentence_report);
  EXPECT_NE(whole_report.cross_validation, sentence_report.cross_validation);
}

TEST(ClaimVerifier, WithPassagesTheCrossValidationAlsoScoresTheAbstractsAlone) {
  auto data = toy_data();
  data.setting = VerifierSetting::free_text;
  VerificationOptions options = toy_options();
  TrainingReport plain;
  train_claim_verifier(data, options, &plain);
  EXPECT_FALSE(plain.cross_validation.contains("abstracts_label_rationale_f1"));
  // Without a passage document ('#' in its id) the abstracts are every document: the same score.
  options.passages = true;
  TrainingReport same;
  train_claim_verifier(data, options, &same);
  ASSERT_TRUE(same.cross_validation.contains("abstracts_label_rationale_f1"));
  EXPECT_EQ(same.cross_validation["abstracts_label_rationale_f1"], same.cross_validation["label_rationale_f1"]);
  // Each evidence document also as a passage of its rationale: scored apart from the abstracts.
  for (auto& item : data.claims) {
    const GoldDocument gold = item.gold.front();
    if (gold.label == Label::not_enough_info) continue;
    EvidenceDocument passage = item.input.documents.front();
    passage.doc_id += "#evidence";
    passage.sentences = {passage.sentences[1]};
    item.input.documents.push_back(passage);
    item.gold.push_back({gold.label, {{0}}});
    item.evidence.emplace(passage.doc_id, item.gold.back());
  }
  TrainingReport with;
  train_claim_verifier(data, options, &with);
  EXPECT_NE(with.cross_validation["abstracts_label_rationale_f1"], with.cross_validation["label_rationale_f1"]);
}
