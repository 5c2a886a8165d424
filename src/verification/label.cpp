#include <string>

#include "claimrag/error.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::verification {

std::string_view label_name(Label label) {
  switch (label) {
    case Label::support: return "SUPPORT";
    case Label::contradict: return "CONTRADICT";
    case Label::not_enough_info: return "NOT_ENOUGH_INFO";
  }
  throw InternalError("label_name: label " + std::to_string(static_cast<int>(label)) + " out of range");
}

Label parse_label(std::string_view name) {
  for (const Label label : {Label::support, Label::contradict, Label::not_enough_info}) {
    if (name == label_name(label)) return label;
  }
  throw UsageError("unknown label '" + std::string(name) + "' (expected SUPPORT, CONTRADICT or NOT_ENOUGH_INFO)");
}

}  // namespace claimrag::verification
