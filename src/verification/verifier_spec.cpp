#include "claimrag/verification/verifier_spec.hpp"

namespace claimrag::verification {

std::string to_string(const VerifierSpec& spec) {
  return spec.location.empty() ? spec.kind : spec.kind + ":" + spec.location;
}

}  // namespace claimrag::verification
