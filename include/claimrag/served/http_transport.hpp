#pragma once
// The live transport: each request is POSTed to the endpoint with the rules of served/endpoint.hpp
// (timeouts, deadline, caps on what the server sends, retries with backoff, bounded concurrency),
// over libcurl. Connections are kept and reused across requests and calls; proxies come from the
// environment (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY; a loopback endpoint is reached
// directly). The API key is redacted from everything that comes back (served/secret_redaction.hpp).
// A failed request is logged at debug level (the reason, never the key); callers, who know what it
// was for, warn.

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "claimrag/served/endpoint.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/served/secret_redaction.hpp"

namespace claimrag::served {

namespace detail {
class CurlConnection;
}

class HttpTransport final : public Transport {
 public:
  /// check_endpoint_options; reads the API key from the environment once, and warns when it
  /// would travel over plain http:// to a host other than the local machine.
  explicit HttpTransport(EndpointOptions options);
  ~HttpTransport() override;
  HttpTransport(const HttpTransport&) = delete;
  HttpTransport& operator=(const HttpTransport&) = delete;
  [[nodiscard]] std::vector<JsonReply> exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) override;
  [[nodiscard]] const std::string& url() const override { return url_; }

 private:
  [[nodiscard]] JsonReply send(detail::CurlConnection& connection, const JsonRequest& request, const ReplyCheck& check) const;
  std::unique_ptr<detail::CurlConnection> take_connection();
  void give_back(std::unique_ptr<detail::CurlConnection> connection);

  EndpointOptions options_;
  std::string url_;  ///< normalized_url(options_.url)
  std::string authorization_;
  SecretRedaction redaction_;
  std::mutex idle_mutex_;
  std::vector<std::unique_ptr<detail::CurlConnection>> idle_;  ///< connections kept for reuse
};

/// A 200 reply's `body` as JSON, or why it is none (not UTF-8, nested deeper than
/// kMaxReplyJsonDepth, not JSON): what a proxy's HTML page, a cut body or a server writing another
/// encoding gives. `depth` is set to the body's nesting depth, measured up to one past the limit.
JsonReply read_reply_body(std::string&& body, int status, std::size_t& depth);

}  // namespace claimrag::served
