#pragma once
// Scoring every (claim, passage) pair of sufficiency examples through the ClaimVerifier
// interface only: an example is one VerificationInput whose documents are its passages, each an
// EvidenceDocument of its sentence(s) (verification/verify_inputs.hpp's splitter), so one batch
// call judges every pair and any verifier can be swapped in.
//
// Bad input, defined:
//  - duplicate passages (byte-equal after trimming surrounding whitespace) are judged once: later
//    copies are dropped, counted in `duplicates_removed`, so they cannot inflate shares or means;
//  - a passage with no sentence (blank) is dropped and counted in `blank_removed`;
//  - an empty evidence set, or a claim with no word (only punctuation), is not sent to the
//    verifier: no pairs, and `reason` says why; the decision is Insufficient.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/sufficiency/example.hpp"
#include "claimrag/sufficiency/features.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::sufficiency {

struct ScoredExample {
  std::vector<PairScore> pairs;        ///< one per kept passage, in order
  std::vector<std::size_t> kept;       ///< indices into Example::evidence of the kept passages
  std::size_t duplicates_removed = 0;
  std::size_t blank_removed = 0;
  std::string reason;                  ///< non-empty when the example could not be judged
  /// (index into Example::evidence, why) of the kept passages the verifier could not judge
  /// (DocumentVerdict::failure): their pair is (0, 0, 1), counted against --max-failures.
  std::vector<std::pair<std::size_t, std::string>> failed;
};

/// A passage as compared for duplicates: without the whitespace around it.
std::string_view trimmed(std::string_view text);

/// The bad-input rules above without a verifier: fills `scored` (kept passages, counts, reasons)
/// and returns one VerificationInput per judgeable example (its example index in `input_of`).
std::vector<verification::VerificationInput> prepare_examples(const std::vector<Example>& examples, std::vector<ScoredExample>& scored,
                                                             std::vector<std::size_t>& input_of);

/// Scores every example with `verifier` (one batch; the verifier's claim_id is Example::claim_id).
std::vector<ScoredExample> score_examples(const verification::ClaimVerifier& verifier, const std::vector<Example>& examples);

/// A diagnostic upper bound, not a system: pair scores from the benchmark's construction (gold),
/// a passage that is a gold rationale sentence of the example's claim for its abstract scoring
/// (1, 0, 0) for SUPPORT or (0, 1, 0) for CONTRADICT with rationale score 1, any other (0, 0, 1).
/// Shows what the aggregation reaches with a perfect sentence-level verifier. Examples need
/// `sources`; a claim id missing from `claims` is an InternalError.
std::vector<ScoredExample> gold_pair_scores(const std::vector<Example>& examples, const std::vector<const dataset::Claim*>& claims);

}  // namespace claimrag::sufficiency
