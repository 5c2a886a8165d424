#pragma once
// The claim verifier over a grounding checker (`--checker minicheck|alignscore`): a checkpoint
// that reads one sequence, a document chunk and the claim joined by its tokenizer's end-of-
// sequence token, and says how likely the chunk supports the claim. It scores a (claim, document)
// pair as the MiniCheck reference code does:
//  - the document (EvidenceDocument::text, else its sentences joined by one space) is cut into
//    chunks (checker_chunks.hpp) of at most `chunk_size` tokens (words for Flan-T5);
//  - each chunk is read as the single text `prefix + chunk + EOS + claim` ("predict: " is
//    Flan-T5's prefix), tokenized with special tokens and cut at the checker's length from the
//    end, as the reference's tokenizer call cuts it;
//  - P(supported) is the checker's probability of its supported label (a two-label head: label 1
//    unless --labels says otherwise; an NLI head: entailment);
//  - minicheck: the document's score is the largest P(supported) over its chunks (ties: the
//    first), its label SUPPORT when the score is above the threshold (0.5: the reference's
//    `prob > 0.5`), else NOT_ENOUGH_INFO; never CONTRADICT;
//  - alignscore: the claim is split into sentences (text/punkt_sentences.hpp), each sentence gets
//    the largest P(supported) over the chunks, and the document's score is their mean (AlignScore's
//    aggregation, for claims of several sentences);
//  - probabilities: SUPPORT the score, NOT_ENOUGH_INFO the rest; the rationale is the chosen
//    chunk's sentences (those of the document's sentences it overlaps, in order, at most
//    max_rationale), each sentence's score the largest P(supported) of a chunk it lies in, and
//    every chunk with its P(supported) is kept in DocumentVerdict::chunks.
// A document with no text has no chunk: NOT_ENOUGH_INFO with probabilities (0, 0, 1), as a
// document without sentences is for the NLI rule. Every chunk of every pair runs in one batched
// call, so verdicts are the same bytes for any thread count.

#include <cstddef>
#include <cstdint>
#include <vector>
#include <memory>
#include <string>
#include <string_view>

#include "claimrag/verification/checkpoint_verifier.hpp"

namespace claimrag::verification {

/// How a checkpoint reads a (claim, document) pair.
enum class CheckerKind {
  nli,         ///< premise / hypothesis pairs of sentences or windows (checkpoint_verifier.hpp)
  minicheck,   ///< chunks + EOS + claim, the largest P(supported) over chunks
  alignscore,  ///< minicheck's chunks, per claim sentence the largest, then their mean
};

/// "nli", "minicheck", "alignscore".
std::string_view checker_kind_name(CheckerKind kind);
/// The inverse of checker_kind_name; UsageError listing the three otherwise.
CheckerKind parse_checker_kind(std::string_view name);

/// What a checker reads, by family (the reference's settings): chunks of 400 tokens within 512
/// tokens for RoBERTa, 400 tokens within 2048 for DeBERTa-v2/v3, 500 words within 2048 after
/// "predict: " for T5, reading label tokens 3 and 209; other families 400 tokens within their length.
struct CheckerSettings {
  std::size_t chunk_size = 400;
  bool counts_words = false;  ///< words (Flan-T5) rather than tokens
  std::size_t max_length = 512;
  std::string prefix;
  /// A T5 checker's label tokens (MiniCheck-Flan-T5: 3 for unsupported, 209 for supported): the
  /// decoder's first-step logits it reads; empty for the classifiers.
  std::vector<std::int32_t> label_tokens{};
};

/// The settings of a checkpoint of `model_type` (config.json's), before the user's changes.
CheckerSettings known_checker_settings(std::string_view model_type);

struct CheckerOptions {
  CheckerKind kind = CheckerKind::minicheck;
  std::size_t chunk_size = 0;   ///< 0: the family's
  double threshold = 0.5;       ///< SUPPORT when the score is above it; in (0, 1)
  std::size_t max_rationale = 3;
  std::size_t max_length = 0;   ///< tokens per chunk and claim; 0: the family's, within the model's
  std::size_t batch_size = 32;
};

/// The checker over `checkpoint`. UsageError for kind nli, a threshold outside (0, 1), a
/// max_rationale of 0, a chunk size above the length read, or a tokenizer without an
/// end-of-sequence token.
std::unique_ptr<ClaimVerifier> make_checker_verifier(std::shared_ptr<const NliCheckpoint> checkpoint,
                                                     const CheckerOptions& options);

/// The document's text as the checker reads it: EvidenceDocument::text, else the sentences
/// joined by one space.
std::string checker_document_text(const EvidenceDocument& document);

}  // namespace claimrag::verification
