#pragma once
// The live transport: each request is POSTed to the endpoint with the rules of served/endpoint.hpp
// (timeouts, deadline, reply cap, retries with backoff, bounded concurrency). A failed request is
// logged at debug level (the reason, never the key); callers, who know what it was for, warn.

#include "claimrag/served/endpoint.hpp"
#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

class HttpTransport final : public Transport {
 public:
  /// check_endpoint_options; reads the API key from the environment once.
  explicit HttpTransport(EndpointOptions options);
  [[nodiscard]] std::vector<JsonReply> exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) override;
  [[nodiscard]] const std::string& url() const override { return url_; }

 private:
  EndpointOptions options_;
  std::string url_;               ///< normalized_url(options_.url)
  std::string scheme_host_port_;  ///< what the HTTP client connects to
  std::string base_path_;         ///< the URL's path, prefixed to every request's path
  std::string api_key_;
};

}  // namespace claimrag::served
