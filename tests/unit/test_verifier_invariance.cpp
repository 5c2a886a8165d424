// Invariances of the built-in verifier on evidence of a user's own making: repeating the evidence
// or adding sentences that support the claim does not turn SUPPORT into CONTRADICT nor move
// P(SUPPORT) more than kMargin below its value on the single supporting sentence; evidence of any
// length gives a finite distribution. Checked on a small synthetic verifier and, when SciFact is
// present, on the free-text verifier over SciFact's train pairs, where the violations still found
// are counted and held at the numbers docs/builtin-verifier.md reports.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/verification/scifact_inputs.hpp"
#include "claimrag/verification/trained_verifier.hpp"
#include "support/toy_verification.hpp"

using namespace claimrag::verification;
namespace fs = std::filesystem;

namespace {

/// How far below the single-sentence P(SUPPORT) a variant may go (the documented margin).
constexpr double kMargin = 0.25;

/// What a variant of the evidence did to one claim's verdict.
struct Shift {
  double single_support = 0;
  double variant_support = 0;
  Label single = Label::not_enough_info;
  Label variant = Label::not_enough_info;
};

const DocumentVerdict& only_document(const std::vector<ClaimVerdict>& verdicts) {
  EXPECT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts.front().documents.size(), 1u);
  return verdicts.front().documents.front();
}

DocumentVerdict judge(const ClaimVerifier& verifier, const std::string& claim, std::vector<std::string> sentences) {
  const std::vector<VerificationInput> inputs{{"c", claim, {{"d", "", std::move(sentences), 0, 0.0}}}};
  return only_document(verifier.verify(inputs));
}

Shift shift(const ClaimVerifier& verifier, const std::string& claim, const std::string& sentence,
            const std::vector<std::string>& variant) {
  const DocumentVerdict one = judge(verifier, claim, {sentence});
  const DocumentVerdict many = judge(verifier, claim, variant);
  return {one.probabilities[0], many.probabilities[0], one.label, many.label};
}

std::vector<std::string> repeated(const std::string& sentence, std::size_t times) {
  return std::vector<std::string>(times, sentence);
}

/// `sentences` cycled to `count` sentences.
std::vector<std::string> cycled(const std::vector<std::string>& sentences, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) out.push_back(sentences[i % sentences.size()]);
  return out;
}

/// Violations of the two invariances over many claims.
struct Violations {
  std::size_t flips = 0;  ///< SUPPORT turned into CONTRADICT
  std::size_t drops = 0;  ///< P(SUPPORT) more than kMargin below the single-sentence value
  double largest_drop = 0;  ///< the largest fall of P(SUPPORT) below the single-sentence value
  void add(const Shift& s) {
    if (s.single != Label::support) return;
    largest_drop = std::max(largest_drop, s.single_support - s.variant_support);
    flips += s.variant == Label::contradict ? 1 : 0;
    drops += s.variant_support < s.single_support - kMargin ? 1 : 0;
  }
};

void expect_invariant(const Shift& s, const std::string& what) {
  if (s.single != Label::support) return;
  EXPECT_NE(s.variant, Label::contradict) << what;
  EXPECT_GE(s.variant_support, s.single_support - kMargin) << what;
}

void expect_finite(const DocumentVerdict& verdict) {
  double sum = 0;
  for (const double p : verdict.probabilities) {
    EXPECT_TRUE(std::isfinite(p));
    sum += p;
  }
  EXPECT_NEAR(sum, 1.0, 1e-9);
}

// A synthetic verifier: "aspirin reduces headache" claims supported or contradicted by one
// sentence among filler, NEI against unrelated text.
LabelledInput synthetic_claim(int i) {
  const bool negated = i % 2 == 1;
  const bool nei = i % 3 == 2;
  return claimrag::testing::claim_with_one_document(
      std::to_string(i), "aspirin reduces headache in trial " + std::to_string(i),
      {"patients were enrolled in the study",
       nei ? "coffee was served to the nurses" : negated ? "aspirin did not reduce headache in the trial" : "aspirin reduces headache in the trial",
       "the weather was sunny"},
      nei ? Label::not_enough_info : negated ? Label::contradict : Label::support);
}

std::unique_ptr<ClaimVerifier> synthetic_verifier() {
  VerifierTrainingData data;
  for (int i = 0; i < 24; ++i) data.claims.push_back(synthetic_claim(i));
  data.corpus_texts = {"aspirin reduces headache pain in the trial", "coffee nurses weather sunny",
                       "patients enrolled study tablets"};
  VerificationOptions options;
  options.folds = 3;
  return train_claim_verifier(data, options);
}

}  // namespace

TEST(VerifierInvariance, SyntheticMoreOfTheSameEvidenceNeverContradicts) {
  const auto verifier = synthetic_verifier();
  const std::string claim = "aspirin reduces headache in trial 0";
  const std::string support = "aspirin reduces headache in the trial";
  ASSERT_EQ(judge(*verifier, claim, {support}).label, Label::support);
  for (const std::size_t times : {2u, 3u, 8u, 20u, 200u}) {
    expect_invariant(shift(*verifier, claim, support, repeated(support, times)), "repeated " + std::to_string(times));
  }
  const std::vector<std::string> supporting{support, "aspirin reduces headache in adults", "aspirin reduces the headache"};
  for (const std::size_t count : {3u, 8u, 15u, 30u}) {
    expect_invariant(shift(*verifier, claim, support, cycled(supporting, count)), std::to_string(count) + " supporting");
  }
}

TEST(VerifierInvariance, ACopiedSentenceIsReadOnceAndScoredAsItsFirstOccurrence) {
  const auto verifier = synthetic_verifier();
  const std::string claim = "aspirin reduces headache in trial 0";
  const std::string filler = "patients were enrolled in the study";
  const std::string support = "aspirin reduces headache in the trial";
  const DocumentVerdict once = judge(*verifier, claim, {filler, support});
  // The same two sentences, each copied, interleaved: the copies at 2 and 3 add nothing.
  const DocumentVerdict copied = judge(*verifier, claim, {filler, support, support, filler});
  EXPECT_EQ(copied.label, once.label);
  EXPECT_EQ(copied.probabilities, once.probabilities);
  EXPECT_EQ(copied.rationale, once.rationale);  // indices of first occurrences
  ASSERT_EQ(copied.sentence_scores.size(), 4u);
  for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(copied.sentence_scores[s].index, s);
  EXPECT_EQ(copied.sentence_scores[2].score, once.sentence_scores[1].score);
  EXPECT_EQ(copied.sentence_scores[3].score, once.sentence_scores[0].score);
}

TEST(VerifierInvariance, EvidenceOfAnyLengthGivesFiniteProbabilities) {
  const auto verifier = synthetic_verifier();
  const std::string claim = "aspirin reduces headache in trial 0";
  // About 2 MB: 50 000 copies of a 38-byte sentence, and one sentence of 2 MB.
  expect_finite(judge(*verifier, claim, repeated("aspirin reduces headache in the trial", 50000)));
  std::string giant;
  while (giant.size() < 2'000'000) giant += "aspirin reduces headache in the trial and ";
  expect_finite(judge(*verifier, claim, {giant}));
  expect_finite(judge(*verifier, claim, {"no no no not never without " + giant}));
}

namespace {

/// The three variants over the first 60 SciFact train pairs whose first gold sentence alone is
/// SUPPORT for the free-text verifier trained with `options`.
struct SciFactShifts {
  Violations repeating, cycling, appending;
};

SciFactShifts scifact_shifts(const fs::path& original, const VerificationOptions& options) {
  const auto abstracts = claimrag::dataset::load_abstracts(original / "corpus.jsonl");
  const auto claims = claimrag::dataset::load_claims(original / "claims_train.jsonl", &abstracts);
  const auto index = index_abstracts(abstracts);
  VerifierTrainingData data;
  data.claims = free_text_inputs(claims, abstracts, index, bm25_run(abstracts, claims, 1.2, 0.75, 20), 42);
  data.corpus_texts = corpus_texts(abstracts);
  data.setting = VerifierSetting::free_text;
  const auto verifier = train_claim_verifier(data, options);

  // Unrelated filler: the sentences of the corpus's first abstracts (no train claim cites them
  // all; a rare shared word does not make them support anything).
  std::vector<std::string> unrelated;
  for (std::size_t a = 0; unrelated.size() < 12; ++a) {
    for (const auto& sentence : abstracts[a].sentences) unrelated.push_back(sentence);
  }
  std::size_t checked = 0;
  SciFactShifts shifts;
  auto& [repeating, cycling, appending] = shifts;
  for (const auto& item : data.claims) {
    for (std::size_t d = 0; d < item.gold.size() && checked < 60; ++d) {
      const GoldDocument& gold = item.gold[d];
      if (gold.label != Label::support) continue;
      std::vector<std::string> rationale;
      for (const auto& set : gold.rationale_sets) {
        for (const std::size_t s : set) rationale.push_back(item.input.documents[d].sentences.at(s));
      }
      const std::string& claim = item.input.claim;
      const std::string& first = rationale.front();
      if (judge(*verifier, claim, {first}).label != Label::support) continue;
      ++checked;
      repeating.add(shift(*verifier, claim, first, repeated(first, 20)));
      cycling.add(shift(*verifier, claim, first, cycled(rationale, 15)));
      std::vector<std::string> padded{first};
      padded.insert(padded.end(), unrelated.begin(), unrelated.end());
      appending.add(shift(*verifier, claim, first, padded));
    }
  }
  EXPECT_EQ(checked, 60u);
  for (const auto& [name, v] : {std::pair{"repeating", &repeating}, {"cycling", &cycling}, {"appending", &appending}}) {
    std::printf("%s: %zu to CONTRADICT, %zu below the margin, largest fall %.4f\n", name, v->flips, v->drops, v->largest_drop);
  }
  return shifts;
}

}  // namespace

TEST(VerifierInvariance, FreeTextVerifierOnSciFactTrainPairs) {
  const fs::path original = fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original";
  if (!fs::exists(original / "claims_train.jsonl")) GTEST_SKIP() << "SciFact is absent (scripts/get-data.sh)";
  const auto [repeating, cycling, appending] = scifact_shifts(original, VerificationOptions{});
  // A repeated sentence is read once (feature_verifier.cpp): repeating it changes nothing at all.
  EXPECT_EQ(repeating.flips, 0u);
  EXPECT_EQ(repeating.drops, 0u);
  EXPECT_EQ(repeating.largest_drop, 0.0);
  // Cycling the gold rationale adds its other supporting sentences, and appending 12 unrelated
  // sentences adds nothing: neither ever gives CONTRADICT. Cycling falls by more than the margin for
  // one pair of the 60 and appending for two (to NEI; measured and documented in
  // docs/builtin-verifier.md): more is a regression.
  EXPECT_EQ(cycling.flips, 0u);
  EXPECT_LE(cycling.drops, 1u);
  EXPECT_EQ(appending.flips, 0u);
  EXPECT_LE(appending.drops, 2u);
}

TEST(VerifierInvariance, TheShippedRuleForOneSentenceNeverTurnsMoreSupportIntoContradiction) {
  const fs::path original = fs::path(CLAIMRAG_SOURCE_DIR) / "data/scifact/original";
  if (!fs::exists(original / "claims_train.jsonl")) GTEST_SKIP() << "SciFact is absent (scripts/get-data.sh)";
  // The single sentence is judged by the rule for evidence of one sentence (its own θ and γ), the
  // longer variants by θ chosen on SciFact: more sentences may leave the verdict NOT_ENOUGH_INFO,
  // never CONTRADICT.
  const VerificationOptions shipped =
      claimrag::experiment::load_config(fs::path(CLAIMRAG_SOURCE_DIR) / "configs/scifact.json").verification.options;
  ASSERT_EQ(shipped.free_text_short_evidence.max_sentences, 1u);
  const auto [repeating, cycling, appending] = scifact_shifts(original, shipped);
  EXPECT_EQ(repeating.flips, 0u);
  EXPECT_EQ(repeating.drops, 0u);
  EXPECT_EQ(cycling.flips, 0u);
  EXPECT_EQ(appending.flips, 0u);
}
