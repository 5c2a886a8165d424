#pragma once
// A deterministic stand-in for the trained 3-way verifier: each claim text has a fixed
// distribution, set by the test; unknown claims are NEI with certainty. It records every input it
// was asked about, so tests can check how a responder batches its calls.

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::testing {

class FakeVerifier final : public verification::ClaimVerifier {
 public:
  using Distribution = std::array<double, verification::label_count>;

  void set(const std::string& claim, Distribution distribution) { distributions_[claim] = distribution; }

  [[nodiscard]] std::vector<verification::ClaimVerdict> verify(
      std::span<const verification::VerificationInput> inputs) const override {
    std::vector<verification::ClaimVerdict> verdicts;
    for (const auto& input : inputs) {
      seen_.push_back(input.claim);
      verification::ClaimVerdict verdict;
      verdict.claim_id = input.claim_id;
      for (const auto& document : input.documents) {
        verification::DocumentVerdict judged;
        judged.doc_id = document.doc_id;
        const auto found = distributions_.find(input.claim);
        judged.probabilities = found == distributions_.end() ? Distribution{0.0, 0.0, 1.0} : found->second;
        verdict.documents.push_back(judged);
      }
      verdicts.push_back(std::move(verdict));
    }
    return verdicts;
  }
  void save(const std::filesystem::path&) const override { throw std::logic_error("FakeVerifier has no model"); }

  /// Every claim verified so far, in call order.
  [[nodiscard]] const std::vector<std::string>& seen() const { return seen_; }

 private:
  std::map<std::string, Distribution> distributions_;
  mutable std::vector<std::string> seen_;
};

}  // namespace claimrag::testing
