#include "claimrag/served/endpoint.hpp"

#include <algorithm>
#include <cctype>
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

std::size_t reply_cap(const EndpointOptions& options, const JsonRequest& request) {
  return std::max(options.max_reply_bytes, request.reply_allowance);
}

double retry_wait_seconds(const EndpointOptions& options, std::size_t attempt, double retry_after, std::uint64_t seed) {
  const double backoff = options.backoff_seconds * std::ldexp(1.0, static_cast<int>(std::min<std::size_t>(attempt, 31)) - 1);
  // splitmix64 of the seed and the attempt: a uniform draw in [0, 1) that every run repeats.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (attempt + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  const double uniform = static_cast<double>(z >> 11) * 0x1.0p-53;
  return std::max(backoff, retry_after) + 0.5 * backoff * uniform;
}

std::string url_host(const std::string& url) {
  const auto scheme_end = url.find("://");
  std::string authority = url.substr(scheme_end == std::string::npos ? 0 : scheme_end + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  if (const auto at = authority.rfind('@'); at != std::string::npos) authority = authority.substr(at + 1);
  if (authority.starts_with('[')) return authority.substr(1, authority.find(']') - 1);
  return authority.substr(0, authority.find(':'));
}

bool host_is_loopback(const std::string& url) {
  std::string host = url_host(url);
  for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (host == "localhost" || host.ends_with(".localhost") || host == "::1") return true;
  // 127.0.0.0/8 written as a dotted address, not a name that starts like one.
  return host.starts_with("127.") && std::count(host.begin(), host.end(), '.') == 3 &&
         host.find_first_not_of("0123456789.") == std::string::npos;
}

bool status_is_retryable(int status) {
  if (status >= 300 && status < 400) return false;  // a redirect: claimrag does not follow it
  switch (status) {
    case 400: case 401: case 403: case 404: case 405: case 413: case 422:
      return false;
    default:
      return true;
  }
}

}  // namespace claimrag::served
