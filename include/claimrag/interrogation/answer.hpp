#pragma once
// The three canonical answers of multi-probe interrogation (Support / Refute / Neutral) and the
// inversion that turns an answer to a conflict probe into an answer about the original claim.

#include <array>
#include <cstddef>
#include <string_view>

namespace claimrag::interrogation {

/// A canonical answer, in the order of every count and score array below.
enum class Answer : int { support = 0, refute = 1, neutral = 2 };
inline constexpr std::size_t answer_count = 3;
inline constexpr std::array<Answer, answer_count> all_answers{Answer::support, Answer::refute,
                                                             Answer::neutral};

/// "SUPPORT", "REFUTE", "NEUTRAL".
std::string_view answer_name(Answer answer);
/// The inverse of answer_name; throws UsageError naming the text for anything else.
Answer parse_answer(std::string_view name);
/// Support <-> Refute; Neutral stays Neutral (a conflict probe's "Support" is a "Refute" of p_O).
Answer invert(Answer answer);

}  // namespace claimrag::interrogation
