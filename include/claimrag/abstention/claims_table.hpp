#pragma once
// The per-claim table an abstention comparison reads: one row per claim with its outcome under the
// shared answer and every strategy's confidence in that answer. Tab-separated, with a header:
//
//   claim_id  answered  unsafe  <strategy>  <strategy> ...
//
// `answered` is 1 when the claim has an answer (0: nothing to give, ranked after every answered
// claim by every strategy), `unsafe` 1 when giving the answer is unsafe (0 safe; an unanswered
// claim is unsafe), each strategy column a finite number, higher = more confident. The
// reproduction writes one for the training claims and one for the test claims; any tool may write
// its own (its own claims, answers and strategies) for `claimrag compare-abstention`.

#include <filesystem>
#include <string>
#include <vector>

namespace claimrag::abstention {

struct ClaimsTable {
  std::vector<std::string> strategies;          ///< column names, in order
  std::vector<std::string> claim_ids;           ///< rows, in order
  std::vector<bool> answered;                   ///< per claim
  std::vector<bool> unsafe;                     ///< per claim
  std::vector<std::vector<double>> confidence;  ///< [strategy][claim]
};

/// Writes atomically; confidences in their shortest exact decimal form. InternalError for a
/// non-finite value or an id or name holding a tab or newline.
void write_claims_table(const ClaimsTable& table, const std::filesystem::path& path);

/// Reads a table. DataError `file:line: reason` for a missing or malformed header (fewer than one
/// strategy, a repeated column), a row with another number of fields, `answered` or `unsafe`
/// other than 0 or 1, an answered 0 with unsafe 0, a confidence that is not a finite number, an
/// empty or repeated claim id, or no rows. Blank lines are skipped.
ClaimsTable read_claims_table(const std::filesystem::path& path);

}  // namespace claimrag::abstention
