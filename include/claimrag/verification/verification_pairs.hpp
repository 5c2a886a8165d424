#pragma once
// `claimrag verify --pairs`: the verifier on a user's own (claim, evidence) pairs.
//
// Input, JSON Lines, one pair a line (blank lines carry nothing; other fields are ignored):
//   {"id": "p1", "claim": "Aspirin lowers infarction risk.", "evidence": "any text, one or more sentences"}
// `id` is a non-empty string or an integer, unique in the file; `claim` and `evidence` are
// strings holding more than whitespace. The evidence is split into sentences by
// evidence_sentences() and judged as one document whose id is the pair's id.
//
// Output, one line per input pair, in input order:
//   {"id": "p1", "label": "SUPPORT",
//    "probabilities": {"SUPPORT": 0.8, "CONTRADICT": 0.1, "NOT_ENOUGH_INFO": 0.1},
//    "rationale": [{"sentence": 0, "text": "...", "score": 0.93}],
//    "truncated_sentences": 0}
// `rationale` lists the selected sentences best first (index into the split evidence, its text
// and the selector's score); `truncated_sentences` counts the evidence sentences cut to the
// model's maximum length, so a verdict on a shortened text is never mistaken for a whole one.
// "reason" is added when the verifier gave one (a claim without a word: NOT_ENOUGH_INFO,
// wordless_claims.hpp), "failed" when it could not judge the pair (DocumentVerdict::failure:
// NOT_ENOUGH_INFO with probabilities (0, 0, 1), not a judgement).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// Reads and checks a pairs file. Invalid JSON, a line that is not an object, a missing, empty
/// or mistyped field, and an id seen on an earlier line are DataErrors `file:line: reason`.
std::vector<VerificationInput> read_verification_pairs(const std::filesystem::path& path);

/// The output line of one pair (see the file comment); `input` holds exactly one document.
nlohmann::ordered_json pair_verdict_json(const VerificationInput& input, const ClaimVerdict& verdict);

/// Writes one line per pair, in input order, atomically (nothing on error).
void write_pair_verdicts(const std::filesystem::path& path, std::span<const VerificationInput> inputs,
                         std::span<const ClaimVerdict> verdicts);

}  // namespace claimrag::verification
