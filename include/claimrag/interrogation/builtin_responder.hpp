#pragma once
// The built-in responder: claimrag's own 3-way verifier answers every probe.
//
// For each request the verifier judges the probe's claim (¬C for a negated probe) against the
// pair's abstract, giving P(SUPPORT), P(CONTRADICT), P(NEI). Sample k draws a label from that
// distribution sharpened or flattened by a temperature T, q_i ∝ p_i^(1/T) (T = 0: the most probable
// label, ties to the first in Label order), with a std::mt19937_64 seeded from the seed and an
// xxHash of (pair id, probe id): the answers do not depend on batching or thread count.
//
// A label answers the probe's question as the verifier judges its proposition: SUPPORT means the
// claim in the slot holds, CONTRADICT that it does not, NEI that the abstract does not say. So
// "is X true?" is answered "Yes" / "No" / "I am not sure", and "is X false?" — the negated
// question — "No" / "Yes" / "I am not sure": a verifier that finds X supported denies that X is
// false. Completion probes get "high" / "low" / "uncertain" for the proposition asked (X true, or X
// false when the probe asks about falsity). The texts go through the same resolution as any model's.
//
// Paraphrases of one question differ only in their samples: the verifier reads the claim and the
// abstract, not the wording of the question.
//
// A pair the verifier could not judge (DocumentVerdict::failure: a served judge's failed exchange
// or unreadable answer) gets no answer: its samples are empty text, counted in failures() with the
// verifier's reason in failure(), so that interrogate's --max-failures holds them.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "claimrag/interrogation/responder.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::interrogation {

struct BuiltinResponderOptions {
  double temperature = 1.0;  ///< >= 0
  std::uint64_t seed = 42;
};

class BuiltinResponder final : public Responder {
 public:
  /// `verifier` must outlive the responder. Throws UsageError for a negative temperature.
  BuiltinResponder(const verification::ClaimVerifier& verifier, BuiltinResponderOptions options);
  [[nodiscard]] std::vector<std::vector<std::string>> respond(std::span<const ProbeRequest> requests,
                                                              std::size_t samples) override;
  [[nodiscard]] std::size_t failures() const override { return failures_; }
  [[nodiscard]] std::string failure(const ProbeRequest& request, std::size_t sample) const override;

 private:
  const verification::ClaimVerifier& verifier_;
  BuiltinResponderOptions options_;
  std::size_t failures_ = 0;
  std::span<const ProbeRequest> asked_;  ///< the requests of the last respond()
  std::vector<std::string> failed_;      ///< per request of the last respond(): the verifier's failure, or ""
};

/// The label drawn for a uniform number u in [0, 1) from `probabilities` at `temperature`.
verification::Label sample_label(const std::array<double, verification::label_count>& probabilities,
                                 double temperature, double u);

/// The text with which a verifier's label answers `probe` (see above).
std::string answer_text(const Probe& probe, verification::Label label);

}  // namespace claimrag::interrogation
