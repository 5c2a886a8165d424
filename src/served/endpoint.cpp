#include "claimrag/served/endpoint.hpp"

#include <cmath>

#include "claimrag/error.hpp"

namespace claimrag::served {

std::string normalized_url(const std::string& url) {
  std::string normalized = url;
  while (!normalized.empty() && normalized.back() == '/') normalized.pop_back();
  return normalized;
}

void check_endpoint_options(const EndpointOptions& options) {
  const std::string& url = options.url;
  const auto scheme_end = url.find("://");
  const bool http = scheme_end != std::string::npos &&
                    (url.compare(0, scheme_end, "http") == 0 || url.compare(0, scheme_end, "https") == 0);
  if (!http || scheme_end + 3 >= url.size() || url[scheme_end + 3] == '/') {
    throw UsageError("a served model's endpoint must be an http:// or https:// base URL, got '" + url + "'");
  }
  if (options.concurrency == 0) throw UsageError("the concurrency must be at least 1");
  if (!(options.timeout_seconds > 0.0) || !std::isfinite(options.timeout_seconds)) {
    throw UsageError("the timeout must be a positive number of seconds");
  }
  if (!(options.deadline_seconds > 0.0) || !std::isfinite(options.deadline_seconds)) {
    throw UsageError("the deadline must be a positive number of seconds");
  }
  if (options.max_reply_bytes == 0) throw UsageError("the reply size cap must be at least 1 byte");
  if (!(options.backoff_seconds >= 0.0) || !std::isfinite(options.backoff_seconds)) {
    throw UsageError("the backoff must be a non-negative number of seconds");
  }
}

bool status_is_retryable(int status) {
  switch (status) {
    case 400: case 401: case 403: case 404: case 405: case 413: case 422:
      return false;
    default:
      return true;
  }
}

}  // namespace claimrag::served
