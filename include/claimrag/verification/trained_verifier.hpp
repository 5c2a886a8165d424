#pragma once
// Training, saving and loading claimrag's claim verifier: a rationale selector (binary logistic
// regression over sentence_features) and a label predictor (softmax regression over
// label_features, standardised) behind the ClaimVerifier interface.
//
// Training, on labelled claims (e.g. SciFact's train claims in the oracle or open setting):
//  1. a TF-IDF vectorizer is fitted on `corpus_texts`;
//  2. folds grouped by claim family (claim_folds.hpp); the selector is fitted on every other
//     fold's sentences (gold rationale sentences against all other sentences of the documents)
//     to give each training sentence an out-of-fold probability;
//  3. for each τ of tau_grid and θ of nei_threshold_grid, label predictors fitted out of fold on
//     rows built from out-of-fold rationales (and, for SUPPORT / CONTRADICT documents, also from
//     their gold rationales) verify each held-out fold; the (τ, θ) with the best pooled abstract
//     Label+Rationale F1 wins (ties: the earlier τ, then the earlier θ);
//     (with VerificationOptions::calibrate, the out-of-fold probabilities are first tempered by
//     the temperature fitted on them);
//  4. the final selector and label predictor are fitted on every claim with the chosen τ, the
//     chosen τ's temperature folded into its weights.
// A document's verdict: NOT_ENOUGH_INFO when P(NEI) ≥ θ, else the likelier of SUPPORT and
// CONTRADICT; its rationale is the selected sentences, or the single best one for a SUPPORT /
// CONTRADICT verdict when none reaches τ.
//
// Determinism: no random draw (folds are balanced greedily); the fitted weights are rounded to
// float32, the precision they are saved in, so a loaded verifier gives the same bytes as the
// one just trained. verify() spreads claims over the OpenMP threads; each claim's result is
// computed alone, so the output does not depend on the thread count.

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::verification {

/// When the free-text rule's γ applies (VerificationOptions::free_text_contradict_cue).
enum class ContradictCue { always, with_cue, cue_required };
/// "always", "with_cue", "cue_required".
std::string_view contradict_cue_name(ContradictCue cue);
/// The value named `name`; std::nullopt for any other text.
std::optional<ContradictCue> parse_contradict_cue(std::string_view name);

/// How the free-text verifier turns a document's sentences into one verdict
/// (VerificationOptions::free_text_aggregation).
enum class FreeTextAggregation { whole, strongest_sentence };
/// "whole", "strongest_sentence".
std::string_view free_text_aggregation_name(FreeTextAggregation aggregation);
/// The value named `name`; std::nullopt for any other text.
std::optional<FreeTextAggregation> parse_free_text_aggregation(std::string_view name);

/// The free-text rule for evidence of very few sentences (VerificationOptions::
/// free_text_short_evidence). The label model learns from abstracts, where a rationale of one to
/// three sentences is picked among several: its features (the best sentence's rank and gap, the
/// top sentences' mean) read a passage of one or two sentences unlike any document it was trained
/// on, and its P(NOT_ENOUGH_INFO) runs high on such passages whatever they say. Evidence of at most
/// `max_sentences` distinct sentences is therefore judged with a θ and γ of its own, chosen on
/// short passages (docs/builtin-verifier.md); longer evidence keeps the model's θ and the rule of
/// free_text_contradict_ratio and free_text_contradict_cue.
struct ShortEvidenceRule {
  std::size_t max_sentences = 0;                  ///< 0: off, every document judged by the model's θ
  double nei_threshold = 0.5;                     ///< θ for short evidence
  double contradict_ratio = 1.0;                  ///< γ for short evidence
  ContradictCue contradict_cue = ContradictCue::always;  ///< when its γ applies
};

/// What is wrong with `rule`'s numbers (θ in [0, 1], γ in (0, 10]); empty when nothing is.
std::string short_evidence_problem(const ShortEvidenceRule& rule);

struct VerificationOptions {
  std::size_t folds = 5;                 ///< cross-validation folds (≥ 2)
  std::size_t max_rationale = 3;         ///< sentences selected at most
  double selector_C = 1.0;               ///< the selector's inverse L2 strength
  double label_l2 = 1e-2;                ///< the label predictor's λ
  std::size_t tfidf_max_features = 50000;
  std::vector<double> tau_grid{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  std::vector<double> nei_threshold_grid{0.3, 0.4, 0.5, 0.6, 0.7};
  /// The claim-only baseline: the label predictor reads claim_only_features instead of
  /// label_features (the selector is unchanged).
  bool claim_only = false;
  /// Adds, for every training claim that text::negate_claim can rewrite, label rows of the
  /// negated claim against the same documents and rationales: SUPPORT becomes CONTRADICT;
  /// CONTRADICT becomes SUPPORT only when a negation was removed or inserted (a swapped direction
  /// word makes a contrary, not the complement: "increases" → "decreases" stays CONTRADICT against
  /// evidence of no effect, so such rows are left out); NOT_ENOUGH_INFO stays NOT_ENOUGH_INFO, so
  /// that a negation cue alone does not read as a contradiction. Held-out claims are never
  /// augmented: cross-validation scores the real claims only.
  bool negation_augmentation = false;
  /// Temperature scaling of the label probabilities: one T fitted on the out-of-fold predictions
  /// at each τ (minimum negative log-likelihood of the gold labels), applied before θ is chosen,
  /// and folded into the final label model's weights, so P(NOT_ENOUGH_INFO) ≥ θ and every
  /// threshold a user passes read calibrated probabilities.
  bool calibrate = true;
  /// The relation features read the paraphrased direction words too (attenuated, boosted, rose,
  /// declined, ...: text::RelationFeatureOptions::paraphrased_directions).
  bool paraphrased_directions = true;
  /// The free-text setting's training inputs add passages of a few sentences cut from the cited
  /// abstracts (verification::add_passages): the rationale alone with its label, and a sentence
  /// outside it as NOT_ENOUGH_INFO. Read by the builders of free-text training data only.
  bool passages = false;
  /// The free-text setting's training inputs add short NOT_ENOUGH_INFO passages from abstracts
  /// off the claim's topic and from other claims' evidence (verification::add_unrelated_passages).
  /// Read by the builders of free-text training data only.
  bool unrelated_passages = false;
  /// In the free-text setting, θ is this value instead of the grid's best when > 0: a threshold
  /// chosen by cross-validation over more than SciFact (docs/builtin-verifier.md).
  double free_text_nei_threshold = 0.0;
  /// In the free-text setting, the rule's second parameter γ: a verdict that is not
  /// NOT_ENOUGH_INFO is CONTRADICT when P(CONTRADICT) > γ·P(SUPPORT), else SUPPORT. 1 is the
  /// likelier of the two; γ < 1 asks less of a contradiction (docs/builtin-verifier.md). Applied
  /// in cross-validation and by the saved model; the other settings always use 1.
  double free_text_contradict_ratio = 1.0;
  /// In the free-text setting, when γ applies (label_features.hpp's conflict_cues): `always`
  /// (every verdict, the rule above); `with_cue`: only when the rationale carries a conflict cue,
  /// else the likelier of SUPPORT and CONTRADICT; `cue_required`: as `with_cue`, and without a
  /// cue never CONTRADICT. Applied in cross-validation and by the saved model.
  ContradictCue free_text_contradict_cue = ContradictCue::always;
  /// The conflict cues free_text_contradict_cue counts (names of label_features.hpp's
  /// conflict_cues; all four by default).
  std::vector<std::string> free_text_conflict_cues{"negation", "null_result", "direction", "number"};
  /// With free_text_contradict_cue: the rationale carries a cue only when each of its distinct
  /// sentences, read alone against the claim, carries one (a supporting sentence without a cue
  /// vetoes the contradiction), instead of the sentences read together.
  bool free_text_cue_in_every_sentence = false;
  /// The label model also reads null_against_effect (label_features.hpp): a null result in the
  /// rationale against a claim that asserts an effect.
  bool null_against_effect = false;
  /// In the free-text setting, how a document is judged: `whole` reads its sentences together
  /// (the selector picks the rationale, the label model reads it); `strongest_sentence` judges
  /// each distinct sentence alone, as a document of one sentence, and gives the document the
  /// verdict of its most confident sentence (feature_verifier.hpp's strongest_sentence), so that
  /// evidence is CONTRADICT only when one of its sentences alone is. Used by the saved model and
  /// by the cross-validation that chooses τ and θ; the weights are trained as for `whole`.
  FreeTextAggregation free_text_aggregation = FreeTextAggregation::whole;
  /// In the free-text setting, the θ and γ of evidence of very few distinct sentences (off when
  /// its max_sentences is 0). Used by the saved model and by the cross-validation that chooses θ
  /// for longer evidence; the weights are trained as without it.
  ShortEvidenceRule free_text_short_evidence;
};

/// What a verifier was trained to read, recorded in its file so that a model is never used on
/// inputs of another kind:
///  - oracle:    SciFact's cited abstracts, no retrieval rank (the paper's oracle setting);
///  - open:      a retrieval run's top abstracts, whose rank and score are features: it reads
///               any document without a rank as an unlikely one, so it is wrong for free text;
///  - free_text: the oracle setting plus unrelated abstracts and same-topic BM25 neighbours as
///               NOT_ENOUGH_INFO documents: the model for users' own (claim, evidence) pairs.
enum class VerifierSetting { oracle, open, free_text };
/// "oracle", "open", "free_text".
std::string_view setting_name(VerifierSetting setting);

/// The options as the model file records them (JSON, one line): what a saved model is checked
/// against, and part of a cached model's key.
std::string options_text(const VerificationOptions& options);

/// What training reads.
struct VerifierTrainingData {
  std::vector<LabelledInput> claims;
  std::vector<std::string> corpus_texts;  ///< fits the TF-IDF vectorizer (title + " " + text per abstract)
  /// Recorded in the model; training data with any retrieval rank is the open setting whatever
  /// this says.
  VerifierSetting setting = VerifierSetting::oracle;
};

/// How training went: the chosen thresholds and the out-of-fold scores at them.
struct TrainingReport {
  double tau = 0;
  double nei_threshold = 0;
  /// "label_only_f1", "label_rationale_f1", "selection_f1", "selection_label_f1" (and _precision /
  /// _recall) of the out-of-fold verdicts at the chosen thresholds; "temperature" (1 without
  /// calibration); and SUPPORT vs CONTRADICT on gold rationales out of fold:
  /// "gold_rationale_sc_accuracy", "gold_rationale_contradict_recall" and the always-SUPPORT
  /// baseline "gold_rationale_support_always_accuracy".
  std::map<std::string, double> cross_validation;
  std::size_t selector_rows = 0;
  std::size_t label_rows = 0;
};

/// Trains as described above. Throws UsageError on bad options or data without claims,
/// documents or any rationale sentence.
std::unique_ptr<ClaimVerifier> train_claim_verifier(const VerifierTrainingData& data, const VerificationOptions& options,
                                                    TrainingReport* report = nullptr);

/// Reads what ClaimVerifier::save wrote. Refused with a DataError naming the file: another format
/// or version, a checksum mismatch (any flipped bit), metadata or tensors that do not fit each
/// other or this program's features, non-finite weights; and, when `expected` is given, options
/// other than those.
std::unique_ptr<ClaimVerifier> load_claim_verifier(const std::filesystem::path& file,
                                                   const VerificationOptions* expected = nullptr);

/// load_claim_verifier for users' own (claim, evidence) pairs, which carry no retrieval rank: a
/// model of the open setting is refused with a DataError naming the free-text verifier instead.
std::unique_ptr<ClaimVerifier> load_free_text_verifier(const std::filesystem::path& file,
                                                       const VerificationOptions* expected = nullptr);

/// The setting a verifier of this module was trained in; UsageError for another implementation.
VerifierSetting setting_of(const ClaimVerifier& verifier);

}  // namespace claimrag::verification
