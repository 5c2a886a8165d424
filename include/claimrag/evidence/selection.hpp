#pragma once
// The evidence a claim cites: its candidates ranked by the verifier's score, the best kept.
//
// Per-claim JSON Lines (one object a line, claims in the order they were extracted):
//   {"claim_id": "1", "claim": "...", "candidates": 30,
//    "selected": [{"doc_id": "d", "sentence_index": 4, "begin": 812, "end": 990, "text": "...",
//                  "score": 0.93, "overlap": 0.21, "document_rank": 2}, ...]}
// "selected" is best first (the first entry is the top-1), "sentence_index" counts the kept
// sentences of the document's `text`, [begin, end) is the byte span in it, "score" is the
// verifier's probability of the evidence class and "overlap" the candidate's Jaccard overlap with
// the claim. An empty selection carries "reason" (one of the kNo* strings below).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/evidence/sentences.hpp"

namespace claimrag::evidence {

inline constexpr const char* kNoRanking = "the run has no ranking for the claim";
inline constexpr const char* kNoDocuments = "the run ranks no documents for the claim";
inline constexpr const char* kNoSentences = "the claim's top documents have no sentences";

struct SelectedSentence {
  SentenceRef sentence;
  double score = 0;
  double overlap = 0;
  std::size_t document_rank = 0;
};

struct ClaimEvidence {
  std::string claim_id;
  std::string claim;
  std::size_t candidates = 0;
  std::vector<SelectedSentence> selected;  ///< best first
  std::string reason;                      ///< why `selected` is empty; empty otherwise
};

/// The best `top` candidates by score (scores[i] belongs to candidates[i]); equal scores keep
/// candidate order. With no candidates the selection is empty and `reason_if_empty` is kept.
ClaimEvidence select_evidence(std::string claim_id, std::string claim, const std::vector<Candidate>& candidates,
                              const std::vector<double>& scores, std::size_t top, std::string reason_if_empty);

/// Writes the JSON Lines above atomically.
void write_evidence(const std::vector<ClaimEvidence>& claims, const std::filesystem::path& path);

/// Reads what write_evidence wrote; a malformed line, a missing field or a claim twice is a
/// DataError `file:line: reason`.
std::vector<ClaimEvidence> read_evidence(const std::filesystem::path& path);

}  // namespace claimrag::evidence
