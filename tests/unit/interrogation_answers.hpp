#pragma once
// The three answers by their letters, as the interrogation tests' tables write them.

#include "claimrag/interrogation/answer.hpp"

namespace claimrag::testing {

inline constexpr interrogation::Answer S = interrogation::Answer::support;
inline constexpr interrogation::Answer R = interrogation::Answer::refute;
inline constexpr interrogation::Answer N = interrogation::Answer::neutral;

}  // namespace claimrag::testing
