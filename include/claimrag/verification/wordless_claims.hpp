#pragma once
// A claim without a word ("?!... ;;; !!!": no letter or digit, text::count_tokens == 0) says
// nothing a verifier could judge. Every subcommand answers it the same way: NOT_ENOUGH_INFO with
// reason kClaimWithoutWord (sufficiency: Insufficient with the same reason), whatever verifier is
// behind it, because open_verifier wraps every verifier in guard_wordless_claims.

#include <memory>
#include <span>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

/// The reason of the verdict on a claim without a word.
inline constexpr const char* kClaimWithoutWord = "the claim has no word";

/// True when `claim` holds at least one word (text::count_tokens > 0).
bool has_word(std::string_view claim);

/// The verdict on a claim without a word: per document NOT_ENOUGH_INFO with probabilities
/// (0, 0, 1), no rationale, every sentence scored 0; reason kClaimWithoutWord.
ClaimVerdict wordless_verdict(const VerificationInput& input);

/// `inner` (not null) behind a guard: claims without a word get wordless_verdict and are not
/// passed on; the others are verified by `inner` in one call, in input order. save() saves `inner`.
std::unique_ptr<ClaimVerifier> guard_wordless_claims(std::unique_ptr<ClaimVerifier> inner);

}  // namespace claimrag::verification
