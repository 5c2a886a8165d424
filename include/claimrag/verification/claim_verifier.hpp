#pragma once
// The 3-way claim verifier's public interface: a claim and candidate evidence documents in, per
// document a label (SUPPORT / CONTRADICT / NOT_ENOUGH_INFO), its full distribution, the selected
// rationale sentences and every sentence's selection score out.
//
// Every system that needs to know whether evidence supports a claim (`verify`, claim-level
// grounding, multi-probe interrogation, evidence sufficiency) goes through this interface and
// nothing else of the verifier's internals, so a model can be replaced without touching them.

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::verification {

/// The three verdicts, in the order of every probability array.
enum class Label : int { support = 0, contradict = 1, not_enough_info = 2 };
inline constexpr std::size_t label_count = 3;

/// Whether γ, the ratio a rule between SUPPORT and CONTRADICT weighs P(SUPPORT) by (the free-text
/// verifier's CONTRADICT rule, `ground`'s claim rule), is in (0, 10]; NaN is not.
inline bool contradict_ratio_in_range(double ratio) { return ratio > 0 && ratio <= 10; }

/// "SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO": SciFact's names.
std::string_view label_name(Label label);
/// The inverse of label_name; throws UsageError naming the text for anything else.
Label parse_label(std::string_view name);

/// A candidate evidence document as the verifier reads it: its sentences, in order. For SciFact
/// these are the `abstract` array of the original layout, so that sentence indices are SciFact's.
struct EvidenceDocument {
  std::string doc_id;
  std::string title;
  std::vector<std::string> sentences;
  std::size_t retrieval_rank = 0;  ///< 1-based rank in the run that proposed it; 0 when given (oracle, user)
  double retrieval_score = 0.0;    ///< that run's score; 0 when given
  /// The document as written, when the input had it as one text (a pair's evidence, a corpus
  /// document's text): what the grounding checkers chunk (checker_verifier.hpp). Empty when only
  /// sentences were given (SciFact's release layout).
  std::string text{};
};

/// One claim and the documents to judge it against.
struct VerificationInput {
  std::string claim_id;
  std::string claim;
  std::vector<EvidenceDocument> documents;
};

/// A chunk of a document a grounding checker read (checker_verifier.hpp) and its P(supported).
struct ChunkScore {
  std::string text;
  double score = 0.0;
};

struct SentenceScore {
  std::size_t index = 0;  ///< into EvidenceDocument::sentences
  double score = 0.0;     ///< the selector's probability that the sentence is a rationale
};

/// The verdict on one (claim, document) pair.
struct DocumentVerdict {
  std::string doc_id;
  Label label = Label::not_enough_info;
  std::array<double, label_count> probabilities{};  ///< indexed by Label, sums to 1
  std::vector<std::size_t> rationale;               ///< selected sentence indices, best first (≤ 3)
  std::vector<SentenceScore> sentence_scores;       ///< every sentence, in sentence order
  std::size_t truncated_sentences = 0;              ///< sentences cut to the model's maximum length
  /// The decision rule's θ when the verifier has one: NOT_ENOUGH_INFO when P(NOT_ENOUGH_INFO) ≥ θ,
  /// else the likelier of SUPPORT and CONTRADICT (or as contradict_ratio says). Empty for a
  /// verifier deciding otherwise.
  std::optional<double> nei_threshold;
  /// Why the verifier could not judge this pair; empty when it did. A failed verdict is
  /// NOT_ENOUGH_INFO with probabilities (0, 0, 1), written as "failed" and counted, never taken
  /// for a judgement (verification/verdict_failures.hpp).
  std::string failure;
  /// γ when the rule weighs CONTRADICT against SUPPORT (VerificationOptions::
  /// free_text_contradict_ratio): CONTRADICT when P(CONTRADICT) > γ·P(SUPPORT). Empty for the
  /// likelier of the two (γ 1).
  std::optional<double> contradict_ratio{};
  /// The conflict cues of the rationale (verification/label_features.hpp's conflict_cues) when
  /// the rule asks for one before γ applies (VerificationOptions::free_text_contradict_cue); empty
  /// otherwise.
  std::optional<std::vector<std::string>> conflict_cues{};
  /// Whether the rule was the free-text verifier's rule for short evidence
  /// (VerificationOptions::free_text_short_evidence), whose θ and γ are its own.
  bool short_evidence = false;
  /// The chunks a grounding checker read, in document order, with their P(supported); empty for
  /// the other verifiers.
  std::vector<ChunkScore> chunks{};
};

/// The verdicts on one claim: one per input document, in input order. `reason` says why a claim
/// has no document verdict at all (e.g. "no retrieved abstract"); such a claim is NEI, never dropped.
struct ClaimVerdict {
  std::string claim_id;
  std::vector<DocumentVerdict> documents;
  std::string reason;
};

/// A trained verifier. Implementations are deterministic: the same inputs give the same bytes
/// whatever the thread count.
class ClaimVerifier {
 public:
  virtual ~ClaimVerifier() = default;
  /// One verdict per input, in input order.
  [[nodiscard]] virtual std::vector<ClaimVerdict> verify(std::span<const VerificationInput> inputs) const = 0;
  /// Writes the models (safetensors, checksummed, with the options they were trained with).
  virtual void save(const std::filesystem::path& file) const = 0;
};

}  // namespace claimrag::verification
