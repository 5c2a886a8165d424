#include "claimrag/interrogation/answer.hpp"

#include <string>

#include "claimrag/error.hpp"

namespace claimrag::interrogation {

std::string_view answer_name(Answer answer) {
  switch (answer) {
    case Answer::support: return "SUPPORT";
    case Answer::refute: return "REFUTE";
    case Answer::neutral: return "NEUTRAL";
  }
  throw InternalError("answer_name: answer " + std::to_string(static_cast<int>(answer)) + " out of range");
}

Answer parse_answer(std::string_view name) {
  for (const Answer answer : all_answers) {
    if (name == answer_name(answer)) return answer;
  }
  throw UsageError("unknown answer '" + std::string(name) + "' (expected SUPPORT, REFUTE or NEUTRAL)");
}

Answer invert(Answer answer) {
  switch (answer) {
    case Answer::support: return Answer::refute;
    case Answer::refute: return Answer::support;
    case Answer::neutral: return Answer::neutral;
  }
  throw InternalError("invert: answer " + std::to_string(static_cast<int>(answer)) + " out of range");
}

}  // namespace claimrag::interrogation
