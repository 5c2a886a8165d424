#pragma once
// How claimrag reaches a model served over HTTP: the rules every served backend shares (an
// OpenAI-compatible chat endpoint, Text Embeddings Inference), in one place.
//
// The endpoint is a base URL, http(s)://host[:port][/path], as clients of the API take it: an
// OpenAI-compatible server's is usually http://127.0.0.1:8080/v1 (requests go to
// <url>/chat/completions), TEI's http://127.0.0.1:8081 (<url>/predict, /rerank, /embed). The API
// key, when the environment variable named by `api_key_variable` is set, goes in an
// "Authorization: Bearer" header and nowhere else: not in a request body, a log line, an error
// message or a recording.
//
// An attempt fails on a connection error, a timeout, an HTTP status other than 200, a body that is
// not JSON or that the caller's check refuses (an HTML error page from a proxy, another API's
// shape), a reply longer than its cap (cut off there), or no complete reply within
// `deadline_seconds` of its start (`timeout_seconds` bounds the connect and each stretch without a
// byte; the deadline bounds the whole attempt, so a server that drips a byte at a time cannot hold
// it open). What a server sends is bounded before it is buffered: the status line and each header
// line at kMaxHeaderLineBytes, the header block at kMaxHeaderBlockBytes (both at most the reply
// cap), a chunk-size line at 16 hexadecimal digits, the body at the reply cap, its JSON nesting at
// kMaxReplyJsonDepth.
//
// A failed attempt is retried up to `retries` times (retry_wait_seconds between attempts), except
// when sending it again cannot change the outcome: a status that says the request itself is wrong
// (400, 401, 403, 404, 405, 413, 422), a redirect (reported with its Location, never followed), a
// reply over its cap or over the header limits, a body the caller's check refuses, or a
// Retry-After longer than the deadline. At most `concurrency` requests are in flight.

#include <cstddef>
#include <cstdint>
#include <string>

#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

struct EndpointOptions {
  std::string url;                                   ///< base URL: http(s)://host[:port][/path]
  std::string api_key_variable = "CLAIMRAG_API_KEY";
  double timeout_seconds = 60.0;                     ///< connect, read and write, each
  double deadline_seconds = 300.0;                   ///< a whole attempt, from connecting to the last byte
  std::size_t max_reply_bytes = 1 << 20;             ///< a longer reply is cut and fails the attempt
  std::size_t retries = 3;                           ///< attempts after the first
  double backoff_seconds = 1.0;
  std::size_t concurrency = 4;                       ///< >= 1
};

/// UsageError naming the problem: a URL that is not http(s)://host..., concurrency 0, a timeout or
/// deadline that is not a positive finite number, a negative or non-finite backoff, a reply cap of 0.
void check_endpoint_options(const EndpointOptions& options);

/// The URL without a trailing '/': what requests' paths are appended to, and what a recording keys by.
std::string normalized_url(const std::string& url);

/// Whether an attempt that ended with this HTTP status is worth repeating (see above): not a
/// redirect, nor 400, 401, 403, 404, 405, 413 or 422.
bool status_is_retryable(int status);

/// The longest status or header line, and the longest header block, a reply may have (each also
/// at most the reply cap).
inline constexpr std::size_t kMaxHeaderLineBytes = std::size_t{64} << 10;
inline constexpr std::size_t kMaxHeaderBlockBytes = std::size_t{64} << 10;
/// The deepest nesting of arrays and objects a reply's JSON may have: replies of the APIs served
/// nest a few levels.
inline constexpr std::size_t kMaxReplyJsonDepth = 128;

/// The reply cap of one request: the endpoint's, or the request's own allowance when larger.
std::size_t reply_cap(const EndpointOptions& options, const JsonRequest& request);

/// Seconds to wait before attempt `attempt` (1 for the first retry): backoff_seconds ×
/// 2^(attempt-1), at least the server's Retry-After (`retry_after` seconds; negative when it sent
/// none), plus a jitter of up to half the backoff that is a fixed function of `seed` (the request's
/// content address) and the attempt, so that concurrent requests spread out and every run waits
/// alike.
double retry_wait_seconds(const EndpointOptions& options, std::size_t attempt, double retry_after, std::uint64_t seed);

/// Whether the URL's host is the local machine (localhost, 127.x.x.x, [::1]): an API key sent
/// over plain http:// anywhere else is readable on the way, and is warned about.
bool host_is_loopback(const std::string& url);

/// The URL's host (without port, user or brackets).
std::string url_host(const std::string& url);

}  // namespace claimrag::served
