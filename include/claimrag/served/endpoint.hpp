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
// shape), a reply longer than `max_reply_bytes` (cut off there), or no complete reply within
// `deadline_seconds` of its start (`timeout_seconds` bounds each wait for a byte; the deadline
// bounds the whole attempt, so a server that drips a byte at a time cannot hold it open). A failed
// attempt is retried up to `retries` times, waiting backoff_seconds × 2^attempt between attempts,
// except on a status that says the request itself is wrong (400, 401, 403, 404, 405, 413, 422):
// sending it again would get the same answer. At most `concurrency` requests are in flight.

#include <cstddef>
#include <string>

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

/// Whether an attempt that ended with this HTTP status is worth repeating (see above).
bool status_is_retryable(int status);

}  // namespace claimrag::served
