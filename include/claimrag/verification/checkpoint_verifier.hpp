#pragma once
// The claim verifier over a pretrained NLI checkpoint (a Hugging Face *ForSequenceClassification
// folder, BERT / RoBERTa / DeBERTa-v2/v3): the evidence is the premise, the claim the hypothesis.
//
// Labels come from config.json's id2label, by name (case and the separators ' ', '-', '_' are
// ignored): entailment → SUPPORT, contradiction → CONTRADICT, neutral → NOT_ENOUGH_INFO; a
// two-label model (entailment / not_entailment, also non_entailment) puts not-entailment's
// probability on NOT_ENOUGH_INFO and never says CONTRADICT. Any other label set is refused with
// a DataError naming config.json and listing its labels, unless the user declares what the labels
// mean (`--labels`, verification.checkpoint.labels: one name per id, in id order): the names above,
// or supported / unsupported for the two-label grounding checkers (MiniCheck's LABEL_0 / LABEL_1
// are `--labels unsupported,supported`): P(SUPPORT) = P(supported), P(NOT_ENOUGH_INFO) = the rest,
// never CONTRADICT.
//
// The rule (CheckpointRule), per (claim, document):
//  - premise: `sentence` (each sentence alone), `window` (each sentence with its neighbours, the
//    previous and the next, joined by one space) or `abstract` (all sentences joined, one premise);
//  - each premise i gets (P_S, P_C, P_N) and a decisiveness s_i = max(P_S, P_C);
//  - the document's distribution is that of the most decisive premise (ties: the first);
//  - its label is NOT_ENOUGH_INFO when that premise's s < threshold, else the likelier of
//    SUPPORT and CONTRADICT (ties: SUPPORT);
//  - sentence scores are s_i per sentence (`abstract`: every sentence 0), and the rationale the
//    sentences with s_i ≥ threshold, most decisive first (ties: earlier), at most max_rationale
//    (`abstract`: none).
// Every pair of every claim runs in one batched call, so verdicts are the same bytes for any
// thread count. A premise longer than the model's positions is truncated (longest first, as the
// tokenizer defines it) and counted in DocumentVerdict::truncated_sentences.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// What one NLI pair's premise is: see the rule above.
enum class PremiseUnit { sentence, window, abstract };
/// "sentence", "window", "abstract".
std::string_view premise_unit_name(PremiseUnit unit);
/// The inverse of premise_unit_name; UsageError listing the three otherwise.
PremiseUnit parse_premise_unit(std::string_view name);

struct CheckpointRule {
  PremiseUnit premise = PremiseUnit::sentence;
  double threshold = 0.5;          ///< in (0, 1]
  std::size_t max_rationale = 3;   ///< ≥ 1
};

struct CheckpointVerifierOptions {
  CheckpointRule rule;
  std::size_t max_length = 0;   ///< tokens per pair; 0: the model's limit
  std::size_t batch_size = 32;  ///< pairs held in memory at once
};

/// A distribution over SUPPORT, CONTRADICT, NOT_ENOUGH_INFO (indexed by Label).
using LabelDistribution = std::array<double, label_count>;

/// The Label each id of `id2label` stands for, as described above. DataError naming
/// `config_file` and listing the labels when they are not one of the two accepted sets.
std::vector<Label> map_nli_labels(const std::vector<std::string>& id2label, const std::string& config_file);

/// The Label each id of `declared` (the user's names, in id order) stands for: the NLI names
/// above plus supported (SUPPORT) and unsupported (NOT_ENOUGH_INFO). UsageError listing them when
/// they are not three-way NLI or one supported-like and one unsupported-like name.
std::vector<Label> map_declared_labels(const std::vector<std::string>& declared);

/// map_nli_labels(id2label) when `declared_labels` is empty, else map_declared_labels of them;
/// UsageError naming `config_file` when their count is not the head's (id2label's).
std::vector<Label> checkpoint_labels(const std::vector<std::string>& id2label, const std::string& config_file,
                                     const std::vector<std::string>& declared_labels);

/// An NLI checkpoint with its tokenizer and label mapping.
class NliCheckpoint {
 public:
  /// Loads `folder`. UsageError naming the folder when its head is not a classification over
  /// labels (an embedding model or a one-logit reranker); the labels by checkpoint_labels
  /// (DataError for unknown names without a declaration, UsageError for a bad declaration).
  /// `label_tokens`: a T5 folder's (pretrained::LoadOptions), which it cannot load without.
  explicit NliCheckpoint(const std::filesystem::path& folder, const std::vector<std::string>& declared_labels = {},
                         const std::vector<std::int32_t>& label_tokens = {});

  [[nodiscard]] const pretrained::TextModel& text_model() const { return model_; }
  [[nodiscard]] const std::vector<Label>& label_of_id() const { return label_of_id_; }

  /// The distribution of each (premise, hypothesis) pair, in order; truncated[i] > 0 when pair i
  /// was cut to fit.
  [[nodiscard]] std::vector<LabelDistribution> judge(std::span<const pretrained::TextInput> pairs,
                                                     const CheckpointVerifierOptions& options,
                                                     std::vector<std::size_t>& truncated) const;

 private:
  pretrained::TextModel model_;
  std::vector<Label> label_of_id_;
};

/// The premises of `document` under `unit`, in sentence order (one for `abstract`; none for a
/// document without sentences).
std::vector<std::string> document_premises(const EvidenceDocument& document, PremiseUnit unit);

/// The verdict on `document` from the distributions of its premises (document_premises order)
/// by the rule above. `truncated` counts the premises that were cut.
DocumentVerdict checkpoint_document_verdict(const EvidenceDocument& document,
                                            std::span<const LabelDistribution> premises, const CheckpointRule& rule,
                                            std::size_t truncated);

/// The distributions of every premise of every document of every input: [claim][document][premise],
/// with the count of truncated premises per [claim][document], and why a [claim][document] could
/// not be judged (the first failed premise's reason; "" when every premise was judged; `failures`
/// may be left empty when nothing failed). One batched call.
struct PremiseJudgements {
  std::vector<std::vector<std::vector<LabelDistribution>>> distributions;
  std::vector<std::vector<std::size_t>> truncated;
  std::vector<std::vector<std::string>> failures;
};
PremiseJudgements judge_premises(const NliCheckpoint& checkpoint, std::span<const VerificationInput> inputs,
                                 PremiseUnit unit, const CheckpointVerifierOptions& options);

/// What judges a batch of (premise, hypothesis) pairs (the checkpoint in process, a served model):
/// their distributions in pair order, truncated[i] > 0 when pair i was cut to fit, and failures[i]
/// the reason pair i could not be judged (its distribution is then ignored); a judge that cannot
/// fail leaves `failures` empty.
struct PairJudgements {
  std::vector<LabelDistribution> distributions;
  std::vector<std::size_t> truncated;
  std::vector<std::string> failures;
};
using PremisePairJudge = std::function<PairJudgements(std::span<const pretrained::TextInput> pairs)>;
/// judge_premises with any judge: every premise of every document of every input, in one call.
PremiseJudgements judge_premises_with(std::span<const VerificationInput> inputs, PremiseUnit unit,
                                      const PremisePairJudge& judge);

/// The verdicts of `inputs` from their judgements by `rule` (rule.premise must be the unit judged);
/// a document that could not be judged gets failed_verdict (verdict_failures.hpp).
std::vector<ClaimVerdict> checkpoint_verdicts(std::span<const VerificationInput> inputs,
                                              const PremiseJudgements& judgements, const CheckpointRule& rule);

/// The verifier. UsageError for a threshold outside (0, 1] or max_rationale 0. save() is a
/// UsageError: the checkpoint folder itself is the model.
std::unique_ptr<ClaimVerifier> make_checkpoint_verifier(std::shared_ptr<const NliCheckpoint> checkpoint,
                                                        const CheckpointVerifierOptions& options);

}  // namespace claimrag::verification
