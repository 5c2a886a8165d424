#pragma once
// One POST over libcurl with every bound of served/endpoint.hpp applied while the reply arrives:
// the deadline of the whole attempt (libcurl's own total timeout, which holds from name lookup to
// the last byte), the connect timeout, the idle timeout (no byte either way, checked every 20 ms), the status and header line caps and the header
// block cap (checked on each line libcurl hands over; libcurl itself refuses a line past 100 KiB
// before buffering more, and a chunk-size line past 16 hexadecimal digits), and the reply cap.
// Redirects are not followed. Used by HttpTransport only.

#include <cstddef>
#include <memory>
#include <string>

#include "claimrag/served/endpoint.hpp"

namespace claimrag::served::detail {

/// A libcurl transfer handle and the multi handle that runs it, kept between requests so that
/// connections are reused.
class CurlConnection {
 public:
  CurlConnection();
  ~CurlConnection();
  CurlConnection(const CurlConnection&) = delete;
  CurlConnection& operator=(const CurlConnection&) = delete;
  [[nodiscard]] void* handle() const { return handle_; }
  [[nodiscard]] void* multi() const { return multi_; }

 private:
  void* handle_;
  void* multi_;
};

/// Where requests go through a proxy, from the environment (see proxy_from_environment).
struct ProxyRoute {
  std::string proxy;     ///< "" to connect directly
  std::string no_proxy;  ///< hosts reached directly (NO_PROXY's list)
};

/// The proxy of requests to `url`: for https://, HTTPS_PROXY (or https_proxy), for http://,
/// HTTP_PROXY (or http_proxy), else ALL_PROXY (or all_proxy); NO_PROXY (or no_proxy) lists the
/// hosts reached directly. A loopback endpoint is always reached directly.
ProxyRoute proxy_from_environment(const std::string& url);

/// What came of one attempt.
struct PostOutcome {
  int status = 0;            ///< 0 when no status line came
  std::string body;          ///< the bytes received
  std::string failure;       ///< "" when a whole reply came, whatever its status
  bool final = false;        ///< sending the request again cannot change the outcome
  double retry_after = -1;   ///< the server's Retry-After, in seconds; negative when none
  std::string location;      ///< a redirect's target
};

/// POSTs `payload` (JSON) to `url`, with `authorization` ("Bearer KEY", or "" for none).
PostOutcome curl_post(CurlConnection& connection, const std::string& url, const std::string& payload,
                      const std::string& authorization, const ProxyRoute& route, const EndpointOptions& options,
                      std::size_t reply_cap);

}  // namespace claimrag::served::detail
