#pragma once
// The prediction file shared by every verification producer (`verify`, baselines, oracles) and
// by the scorer (`evaluate --verification`): SciFact's official format plus optional fields of
// our own. JSON Lines, one line per claim:
//
//   {"id": 13, "evidence": {"<doc_id>": {"label": "SUPPORT"|"CONTRADICT"|"NOT_ENOUGH_INFO",
//                                        "sentences": [i, ...],
//                                        "probabilities": {"SUPPORT": p, "CONTRADICT": p, "NOT_ENOUGH_INFO": p},
//                                        "sentence_scores": [[i, s], ...],
//                                        "retrieval_rank": r, "truncated_sentences": t,
//                                        "failed": "..."}},
//    "reason": "..."}
//
// "probabilities", "sentence_scores", "retrieval_rank", "truncated_sentences", "failed" (why the
// verifier could not judge the pair: DocumentVerdict::failure) and "reason" are optional; the scorer reads only "id", "label" and "sentences". Unknown extra fields are accepted
// and ignored. Sentence indices are positions in the `abstract` array of original/corpus.jsonl;
// "sentences" is in prediction order (the official abstract-level metric reads its first 3).

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// The prediction for one (claim, document) pair.
struct DocumentPrediction {
  std::string doc_id;
  Label label = Label::not_enough_info;
  std::vector<std::size_t> sentences;  ///< rationale, prediction order; distinct indices
  std::optional<std::array<double, label_count>> probabilities;  ///< indexed by Label
  std::optional<std::vector<SentenceScore>> sentence_scores;     ///< as the producer ordered them
  std::optional<std::size_t> retrieval_rank;                     ///< 1-based
  std::optional<std::size_t> truncated_sentences;
  std::optional<std::string> failure;                            ///< written as "failed"
  /// Field by field; doubles compare with == (so 0.0 equals -0.0).
  bool operator==(const DocumentPrediction& other) const;
};

/// The predictions for one claim. A claim with no document is a prediction of nothing (NEI).
struct ClaimPrediction {
  std::string claim_id;
  std::vector<DocumentPrediction> documents;  ///< written in this order; distinct doc ids
  std::optional<std::string> reason;          ///< why a claim has no document, say
  std::size_t line = 0;  ///< line of the file it was read from; 0 when built in memory (not written)
  /// Equality of content; `line` is where it came from, not what it says, and is not compared.
  bool operator==(const ClaimPrediction& other) const {
    return claim_id == other.claim_id && documents == other.documents && reason == other.reason;
  }
};

/// Reads a prediction file. Throws DataError `file:line: reason` for invalid JSON, a missing or
/// mistyped "id" or "evidence", an unknown label, a sentence index that is not a non-negative
/// integer or appears twice in one document, a malformed optional field, a document named twice
/// in one claim, or a claim id already seen. "id" may be an integer or a string. Blank lines, a
/// byte-order mark and CRLF endings are accepted. Sets ClaimPrediction::line.
std::vector<ClaimPrediction> read_predictions(const std::filesystem::path& file);

/// Throws DataError `file:line: reason` for a predicted document (of any label) absent from
/// `abstracts`, or a sentence index (in "sentences" or "sentence_scores") past the last sentence
/// of its abstract. `file` is the predictions' source, for messages.
void check_against_abstracts(std::span<const ClaimPrediction> predictions, std::span<const dataset::Abstract> abstracts,
                             const std::filesystem::path& file);

/// One line of the format, without its newline. Keys in a fixed order (id, evidence, reason;
/// label, sentences, probabilities, sentence_scores, retrieval_rank, truncated_sentences), documents
/// in the order given, absent optionals left out, doubles in their shortest form that reads back
/// to the same bits. "id" is written as a JSON integer when it is a canonical decimal integer
/// ("13", "-2", not "013" or "+1"), else as a string. Throws InternalError for a non-finite
/// number (JSON cannot hold it), a document named twice or a sentence listed twice in one document.
std::string prediction_to_json_line(const ClaimPrediction& prediction);

/// Writes one line per prediction, in the order given, through a temporary file renamed into
/// place. Throws InternalError, writing nothing, for a claim id given twice.
void write_predictions(std::span<const ClaimPrediction> predictions, const std::filesystem::path& file);

/// The prediction of a verdict: every document verdict, in its order, with label, rationale,
/// probabilities, sentence scores and truncated-sentence count. When `input` is the input the
/// verdict answers (same claim, same documents in the same order; InternalError otherwise), each
/// document's retrieval_rank is taken from it where it is non-zero. An empty reason is left out.
ClaimPrediction to_prediction(const ClaimVerdict& verdict, const VerificationInput* input = nullptr);

}  // namespace claimrag::verification
