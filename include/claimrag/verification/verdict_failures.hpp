#pragma once
// Counting the pairs a verifier could not judge (DocumentVerdict::failure: a served judge whose
// exchange failed or whose answer could not be read, a TEI request refused), and the --max-failures rule every command
// applies to them before it writes anything, with interrogate's semantics: more than the share
// fails the command, nothing written; fewer are warned about, written as "failed" and counted.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

struct VerdictFailures {
  std::size_t failed = 0;    ///< document verdicts with a failure
  std::size_t judged = 0;    ///< every document verdict
  std::string first_reason;  ///< the first failure, in input order; empty when none
};

/// The verdict of a pair the verifier could not judge: NOT_ENOUGH_INFO, (0, 0, 1), every sentence
/// scored 0, `failure` = `reason`.
DocumentVerdict failed_verdict(const EvidenceDocument& document, std::string reason);

/// The failures among `verdicts`' document verdicts.
VerdictFailures count_failures(std::span<const ClaimVerdict> verdicts);

/// DataError named `--verifier SPEC` when failures.failed > max_failures × failures.judged:
/// "F of N pairs could not be judged, more than --max-failures S allows (first reason: ...);
/// nothing written". Otherwise, with any failure, one warning with the count.
void enforce_max_failures(const VerdictFailures& failures, double max_failures, std::string_view verifier_spec);

}  // namespace claimrag::verification
