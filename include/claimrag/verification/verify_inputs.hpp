#pragma once
// Assembling the verifier's inputs from a retrieval run: every claim with its top-k ranked
// documents, each document as the sentences the verifier reads.
//
// Sentences come from SciFact's release layout (`original/corpus.jsonl`, the `abstract` arrays)
// when it is given, so that sentence indices are SciFact's and predictions can be scored with the
// official metrics. Without it they are split from the BEIR `text` by text::split_sentences with
// a minimum of one character: no fragment of the text is dropped, but the indices are the
// splitter's, not SciFact's.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/dataset/scifact.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// The reason carried by a claim that was judged against no document.
inline constexpr const char* kNoRetrievedAbstract = "no retrieved abstract";

/// Free text as the verifier's sentences: text::split_sentences with a one-character minimum, so
/// only whitespace is lost. Empty for blank text.
std::vector<std::string> evidence_sentences(std::string_view text);

/// The sentences of corpus documents, taken on demand from the release layout or split from the
/// BEIR text (see the file comment). Keeps references: `corpus` must outlive it.
class DocumentSentences {
 public:
  /// Splits each document's BEIR `text` (evidence_sentences).
  explicit DocumentSentences(const dataset::Corpus& corpus);
  /// Uses `abstracts`' sentences; every corpus document must have one, read from
  /// `abstracts_source` (DataError naming that file and the first missing document otherwise).
  DocumentSentences(const dataset::Corpus& corpus, std::vector<dataset::Abstract> abstracts,
                    const std::filesystem::path& abstracts_source);

  /// The document at corpus position `position`, with rank and score left at 0.
  [[nodiscard]] EvidenceDocument document(std::size_t position) const;
  [[nodiscard]] const dataset::Corpus& corpus() const { return corpus_; }
  /// True when sentences come from the release layout (SciFact's indices).
  [[nodiscard]] bool from_release_layout() const { return !abstracts_.empty(); }

 private:
  const dataset::Corpus& corpus_;
  std::vector<dataset::Abstract> abstracts_;
  std::vector<std::size_t> abstract_of_;  ///< corpus position -> index into abstracts_
};

/// One input per claim, in `claims` order, holding the claim's first `k` (> 0) documents in the
/// run's rank order with their 1-based rank and the run's score. A claim the run does not rank
/// keeps an empty document list (verify_claims then gives it kNoRetrievedAbstract). A ranked
/// document absent from the corpus is a DataError naming `run_source`.
std::vector<VerificationInput> inputs_from_run(const std::vector<dataset::Query>& claims, const run::Run& run,
                                               const DocumentSentences& sentences, std::size_t k,
                                               const std::string& run_source);

/// verifier.verify(inputs), checked: one verdict per input with the input's claim id, one
/// document verdict per document with its id, in input order, each scoring every sentence in
/// sentence order, citing only existing sentences, with probabilities in [0, 1] (InternalError
/// otherwise). A claim without documents is NEI with reason kNoRetrievedAbstract unless the
/// verifier gave a reason.
std::vector<ClaimVerdict> verify_claims(const ClaimVerifier& verifier, std::span<const VerificationInput> inputs);

/// Sentences cut to the model's maximum length, over every document of every verdict.
std::size_t truncated_sentence_count(std::span<const ClaimVerdict> verdicts);

}  // namespace claimrag::verification
