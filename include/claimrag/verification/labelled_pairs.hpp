#pragma once
// Labelled (claim, evidence) pairs: the user's own data for choosing a verifier's threshold
// (`claimrag calibrate`) and scoring it (`claimrag evaluate --pairs`).
//
// JSON Lines, one pair a line (blank lines carry nothing). Two layouts are read:
//   claimrag's   {"id": "p1", "claim": "...", "evidence": "...", "label": "SUPPORT"}
//   LLM-AggreFact's {"doc": "...", "claim": "...", "label": 1, "dataset": "AggreFact-CNN"}
// - the evidence is "evidence" or "doc" (exactly one of them), a string holding more than whitespace;
// - "label" is 1 / 0 (supported / unsupported, LLM-AggreFact's), "supported" / "unsupported", or
//   SciFact's SUPPORT / CONTRADICT / NOT_ENOUGH_INFO;
// - "id" (a string or an integer, unique) is optional: the line number stands in for it;
// - "dataset" (optional) groups pairs for per-dataset scores; "claim_id" (optional) groups pairs of
//   one claim for cross-validation, else pairs with the same claim text form a group.
// The labels are two-way when no pair says CONTRADICT or NOT_ENOUGH_INFO (supported against the
// rest), else three-way, where 1 / supported stand for SUPPORT and 0 / unsupported are refused.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

struct LabelledPairs {
  std::vector<VerificationInput> inputs;  ///< one evidence document each, split as verify --pairs splits it
  std::vector<Label> gold;                ///< two-way: SUPPORT or NOT_ENOUGH_INFO (unsupported)
  std::vector<std::string> datasets;      ///< "" when the line names none
  std::vector<std::size_t> group_of;      ///< the claim group of each pair, numbered in order of appearance
  bool two_way = true;
};

/// Reads and checks `path`. DataError "file:line: reason" for invalid JSON, a missing, empty or
/// mistyped field, both or neither of "evidence" and "doc", an unknown label, an id seen before,
/// a three-way file with 1 / 0 labels, or a file without pairs.
LabelledPairs read_labelled_pairs(const std::filesystem::path& path);

}  // namespace claimrag::verification
