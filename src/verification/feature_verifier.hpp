#pragma once
// The verifier behind train_claim_verifier / load_claim_verifier (trained_verifier.hpp): its
// fitted parts, how one document is judged, and the class implementing ClaimVerifier.

#include <array>
#include <memory>
#include <vector>

#include "claimrag/linear/softmax_regression.hpp"
#include "claimrag/tfidf/vectorizer.hpp"
#include "claimrag/verification/label_features.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::verification::detail {

/// The rationale selector: P(rationale) = σ(wᵀx + b) over sentence_features.
struct SelectorModel {
  Eigen::VectorXd weights;
  double bias = 0;
  [[nodiscard]] std::vector<double> probabilities(const linear::RowMatrixXd& features) const;
};

/// The label predictor: softmax regression over standardised label_features.
struct LabelModel {
  Eigen::VectorXd mean, scale;  ///< per feature; x ↦ (x − mean) / scale
  linear::SoftmaxRegressionModel model;
  [[nodiscard]] std::array<double, label_count> probabilities(const std::vector<double>& row) const;
};

/// Rounds every weight to float32, the precision the file keeps.
void round_to_float(SelectorModel& selector);
void round_to_float(LabelModel& label);

/// The label predictor's input row for `options` (label_features or claim_only_features).
std::vector<double> label_row(const VerificationOptions& options, const std::string& claim_text, const ClaimText& claim, const DocumentText& document,
                              const EvidenceDocument& source, const std::vector<double>& probabilities,
                              const std::vector<std::size_t>& rationale, double tau);
/// Its column names.
const std::vector<std::string>& label_row_names(const VerificationOptions& options);


/// How the rule weighs CONTRADICT against SUPPORT: γ, and when it applies.
struct ContradictRule {
  double ratio = 1.0;
  ContradictCue cue = ContradictCue::always;
};

/// The whole rule one document is judged by: θ, γ, and whether they are the short-evidence ones.
struct DecisionRule {
  double nei_threshold = 0.5;
  ContradictRule contradict;
  bool short_evidence = false;  ///< options.free_text_short_evidence's θ and γ
};

/// The verdict for one document from its sentence and label probabilities: NEI when P(NEI) ≥ θ,
/// else CONTRADICT when P(CONTRADICT) > γ·P(SUPPORT), else SUPPORT; rationale as
/// trained_verifier.hpp says. γ is rule.contradict.ratio when its cue is `always` or `cues` (the
/// rationale's conflict cues) is not empty; without a cue it is 1 (`with_cue`), or CONTRADICT is
/// never the verdict (`cue_required`).
DocumentVerdict decide(const EvidenceDocument& document, const std::vector<double>& sentence_probabilities,
                       const std::array<double, label_count>& label_probabilities, double tau, std::size_t max_rationale,
                       const DecisionRule& rule, const std::vector<std::string_view>& cues);

/// The rule a verifier of `setting` trained with `options`, whose θ is `nei_threshold`, judges a
/// document of these sentences by: in the free-text setting, options.free_text_short_evidence's
/// θ and γ when the document has at least one and at most its max_sentences distinct sentences,
/// else θ and the options' γ and cue; θ and γ 1 in the other settings.
DecisionRule decision_rule(const VerificationOptions& options, VerifierSetting setting, double nei_threshold,
                           const std::vector<std::string>& sentences);

/// `rule` at another θ of the verifier's (the cross-validation's grid): a short-evidence rule
/// keeps its own θ.
DecisionRule at_nei_threshold(DecisionRule rule, double nei_threshold);

/// The conflict cues a rule whose γ applies as `cue` says reads for a rationale whose label_row is
/// `row`: those of options.free_text_conflict_cues among the row's, or, with
/// free_text_cue_in_every_sentence, their union over the rationale's distinct sentences read
/// alone, empty as soon as one sentence has none. Empty when `cue` is `always` and for the
/// claim-only baseline.
std::vector<std::string_view> rationale_conflict_cues(const VerificationOptions& options, ContradictCue cue, const std::string& claim_text,
                                                      const EvidenceDocument& source, const std::vector<std::size_t>& rationale,
                                                      const std::vector<double>& row);

/// What the label model reads of one document: the selector's probability of every sentence,
/// the rationale (the sentences reaching τ, or the single best one) and the label row.
struct DocumentReading {
  std::vector<double> sentence_probabilities;
  std::vector<std::size_t> rationale;
  std::vector<double> row;
};
DocumentReading read_document_for_label(const VerificationOptions& options, const SelectorModel& selector,
                                        const std::string& claim_text, const ClaimText& claim, const DocumentText& text,
                                        const EvidenceDocument& document, double tau);

/// Strongest-sentence aggregation (VerificationOptions::free_text_aggregation): every distinct
/// sentence of a document read as a document of that sentence alone.
struct SentencesAlone {
  std::vector<std::size_t> sentences;     ///< the distinct sentences' indices (first occurrences), in order
  std::vector<DocumentReading> readings;  ///< per distinct sentence
};
/// `texts` are the document's sentences as read_sentences gives them; a document without
/// sentences has no reading.
SentencesAlone read_sentences_alone(const VerificationOptions& options, const SelectorModel& selector,
                                    const std::string& claim_text, const ClaimText& claim, const EvidenceDocument& document,
                                    const SentenceTexts& texts, double tau);

/// The most confident of the distinct sentences' label probabilities: the highest
/// max(P(SUPPORT), P(CONTRADICT)), ties to the earlier sentence. The sentence that most clearly
/// takes a side speaks for the evidence; P(NOT_ENOUGH_INFO) does not rank them, since a sentence
/// that says nothing about the claim must never outrank one that does, and ranking by the side
/// taken rather than by the verdict's label keeps the choice independent of θ and γ. A repeated
/// sentence is read once and an added sentence can only replace the chosen one by being more
/// confident itself, so evidence is CONTRADICT only when one of its sentences alone is.
std::size_t strongest_sentence(const std::vector<std::array<double, label_count>>& probabilities);

/// The document's verdict under strongest-sentence aggregation, from `whole`, the verdict on the
/// document read whole: the label, probabilities and conflict cues of its strongest sentence
/// judged alone (`probabilities` per distinct sentence of `alone`, from the label model); the
/// sentence scores of `whole`, and, unless NOT_ENOUGH_INFO, as rationale the strongest sentence
/// then the sentences of `whole`'s rationale that reach τ, at most max_rationale.
DocumentVerdict strongest_sentence_verdict(DocumentVerdict whole, const VerificationOptions& options, const std::string& claim_text,
                                           const EvidenceDocument& document, const SentencesAlone& alone,
                                           const std::vector<std::array<double, label_count>>& probabilities, double tau,
                                           const DecisionRule& rule);

/// Whether a verifier of `setting` trained with `options` judges documents sentence by sentence.
bool judges_strongest_sentence(const VerificationOptions& options, VerifierSetting setting);

struct FittedVerifier {
  VerificationOptions options;
  std::shared_ptr<const tfidf::TfidfVectorizer> vectorizer;
  SelectorModel selector;
  LabelModel label;
  double tau = 0.5;
  double nei_threshold = 0.5;
  VerifierSetting setting = VerifierSetting::oracle;
  /// decision_rule(options, setting, nei_threshold, sentences): the rule a document is judged by.
  [[nodiscard]] DecisionRule rule_for(const std::vector<std::string>& sentences) const {
    return detail::decision_rule(options, setting, nei_threshold, sentences);
  }
};

class FeatureVerifier final : public ClaimVerifier {
 public:
  explicit FeatureVerifier(FittedVerifier fitted) : fitted_(std::move(fitted)) {}
  [[nodiscard]] std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const override;
  void save(const std::filesystem::path& file) const override;
  [[nodiscard]] const FittedVerifier& fitted() const { return fitted_; }

 private:
  /// One document, each distinct sentence read once (judge_distinct), copies scored as their
  /// first occurrence.
  [[nodiscard]] DocumentVerdict judge_whole(const std::string& claim_text, const ClaimText& claim, const EvidenceDocument& document,
                                            std::shared_ptr<const SentenceTexts> sentences, const DecisionRule& rule) const;
  /// One document as the options say: judge_whole, or by strongest-sentence aggregation.
  [[nodiscard]] DocumentVerdict judge(const std::string& claim_text, const ClaimText& claim,
                                      const EvidenceDocument& document, std::shared_ptr<const SentenceTexts> sentences) const;
  /// One document whose sentences the features read as they are.
  [[nodiscard]] DocumentVerdict judge_distinct(const std::string& claim_text, const ClaimText& claim, const EvidenceDocument& document,
                                               std::shared_ptr<const SentenceTexts> sentences, const DecisionRule& rule) const;
  FittedVerifier fitted_;
};

}  // namespace claimrag::verification::detail
