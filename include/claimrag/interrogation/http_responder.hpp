#pragma once
// The HTTP responder: any OpenAI-compatible chat-completions endpoint (llama.cpp's server, vLLM,
// Ollama, OpenAI) answers the probes.
//
// The endpoint's rules are served/endpoint.hpp's and the request served/chat.hpp's, shared with
// every served backend; this file only turns probes into requests and replies into answers.
// Each sample is one POST to `<endpoint>/chat/completions` — the endpoint is the API's base URL,
// as OpenAI clients take it, e.g. http://127.0.0.1:8080/v1 — with {"model", "messages": [{"role":
// "user", "content": prompt}], "temperature", "stream": false}; the answer is choices[0].message.content. The API
// key, when the environment variable named by `api_key_variable` is set, goes in an
// "Authorization: Bearer" header; local servers need none.
//
// An attempt fails, is retried or not, and is bounded (timeouts, deadline, header and reply caps)
// by the endpoint's rules (served/endpoint.hpp); an answer whose every attempt failed becomes
// empty text — resolved as an unresolvable Neutral — is counted in failures(), its reason
// kept in failure() (and so written to the recording as a failure) and logged. At most
// `concurrency` requests are in flight. Answers are returned in request order whatever the order
// of completion.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "claimrag/interrogation/responder.hpp"
#include "claimrag/served/http_transport.hpp"

namespace claimrag::interrogation {

struct HttpResponderOptions {
  std::string endpoint;                              ///< base URL: http(s)://host[:port][/path]
  std::string model;
  std::string api_key_variable = "CLAIMRAG_API_KEY";
  double temperature = 1.0;
  double timeout_seconds = 60.0;                     ///< connect, read and write, each
  double deadline_seconds = 300.0;                   ///< a whole attempt, from connecting to the last byte
  std::size_t max_reply_bytes = 1 << 20;             ///< a longer reply is cut and fails the attempt
  std::size_t retries = 3;                           ///< attempts after the first
  double backoff_seconds = 1.0;
  std::size_t concurrency = 4;                       ///< >= 1
};

/// The endpoint's rules these options give (served/endpoint.hpp): what the responder's transport
/// uses, and what a served verifier asked by interrogate's built-in responder uses too.
served::EndpointOptions endpoint_options(const HttpResponderOptions& options);

class HttpResponder final : public Responder {
 public:
  /// Throws UsageError for a malformed endpoint, an empty model, concurrency 0, a negative or
  /// non-finite timeout, deadline, backoff or temperature, or a reply cap of 0.
  explicit HttpResponder(HttpResponderOptions options);
  [[nodiscard]] std::vector<std::vector<std::string>> respond(std::span<const ProbeRequest> requests,
                                                              std::size_t samples) override;
  [[nodiscard]] std::size_t failures() const override { return failures_; }
  [[nodiscard]] std::string failure(const ProbeRequest& request, std::size_t sample) const override;

 private:
  HttpResponderOptions options_;
  std::unique_ptr<served::HttpTransport> transport_;
  std::size_t failures_ = 0;
  std::span<const ProbeRequest> asked_;            ///< the requests of the last respond()
  std::vector<std::vector<std::string>> failed_;   ///< per request and sample: why it failed, or ""
};

}  // namespace claimrag::interrogation
