#pragma once
// Responders: whatever answers the probes. One interface for the built-in verifier, a recording
// of an external model's answers, and an OpenAI-compatible chat-completions endpoint.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "claimrag/interrogation/pair.hpp"
#include "claimrag/interrogation/probe.hpp"

namespace claimrag::interrogation {

/// One probe put to one pair.
struct ProbeRequest {
  const InterrogationPair* pair = nullptr;
  const Probe* probe = nullptr;
  std::string claim;   ///< what filled `{claim}`: the claim, or its negation for a negated probe
  std::string prompt;  ///< the rendered template
};

class Responder {
 public:
  virtual ~Responder() = default;
  /// `samples` free-text answers per request: result[i][k] is sample k of requests[i]. A responder
  /// may fail an answer it cannot obtain (see failures()); it then answers with empty text.
  [[nodiscard]] virtual std::vector<std::vector<std::string>> respond(std::span<const ProbeRequest> requests,
                                                                      std::size_t samples) = 0;
  /// Answers replaced by empty text because they could not be obtained (timeouts, say).
  [[nodiscard]] virtual std::size_t failures() const { return 0; }
  /// Why sample `sample` of `request` could not be obtained, or "" when it was answered. Valid for
  /// the requests of the last respond() call; safe to call from several threads.
  [[nodiscard]] virtual std::string failure(const ProbeRequest& /*request*/, std::size_t /*sample*/) const { return {}; }
};

}  // namespace claimrag::interrogation
