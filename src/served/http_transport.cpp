#include "claimrag/served/http_transport.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/utf8.hpp"
#include "curl_post.hpp"

namespace claimrag::served {
namespace {

/// The first bytes of an error reply, on one line: enough to say why ("response_format is not
/// supported"), bounded so that an HTML page does not flood the log.
std::string excerpt(const std::string& body) {
  std::string text(io::utf8_prefix(body, 200));
  const bool cut = text.size() < body.size();
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return cut ? text + "..." : text;
}

std::string status_failure(const detail::PostOutcome& outcome) {
  std::string failure = "HTTP status " + std::to_string(outcome.status);
  if (outcome.status >= 300 && outcome.status < 400) {
    return failure + ": redirected to " + (outcome.location.empty() ? "no Location" : outcome.location) +
           " (redirects are not followed: give the endpoint's final URL)";
  }
  return failure + ": " + excerpt(outcome.body);
}

std::string environment_value(const std::string& variable) {
  const char* value = std::getenv(variable.c_str());
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

JsonReply read_reply_body(std::string&& body, int status, std::size_t& depth) {
  if (const auto at = io::invalid_utf8_offset(body)) {
    return {nullptr, "the body is not valid UTF-8 (byte " + std::to_string(*at) + ")", status};
  }
  depth = io::json_nesting_depth(body, kMaxReplyJsonDepth);
  if (depth > kMaxReplyJsonDepth) {
    return {nullptr, "the body's JSON nests deeper than " + std::to_string(kMaxReplyJsonDepth) + " levels", status};
  }
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_discarded()) return {nullptr, "the body is not JSON", status};
  return {std::move(parsed), "", status};
}

HttpTransport::HttpTransport(EndpointOptions options)
    : options_(std::move(options)), redaction_(environment_value(options_.api_key_variable)) {
  check_endpoint_options(options_);
  url_ = normalized_url(options_.url);
  if (const std::string key = environment_value(options_.api_key_variable); !key.empty()) {
    authorization_ = "Bearer " + key;
    if (url_.starts_with("http://") && !host_is_loopback(url_)) {
      spdlog::warn("the API key in ${} is sent unencrypted over http:// to {}: anyone on the way can read it (use https://)",
                   options_.api_key_variable, url_host(url_));
    }
  }
}

HttpTransport::~HttpTransport() = default;

std::unique_ptr<detail::CurlConnection> HttpTransport::take_connection() {
  {
    const std::lock_guard lock(idle_mutex_);
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      return connection;
    }
  }
  return std::make_unique<detail::CurlConnection>();
}

void HttpTransport::give_back(std::unique_ptr<detail::CurlConnection> connection) {
  const std::lock_guard lock(idle_mutex_);
  idle_.push_back(std::move(connection));
}

JsonReply HttpTransport::send(detail::CurlConnection& connection, const JsonRequest& request, const ReplyCheck& check) const {
  const std::string payload = request.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string target = url_ + request.path;
  const detail::ProxyRoute route = detail::proxy_from_environment(url_);
  const std::uint64_t seed = io::xxh64(target + '\n' + payload);
  JsonReply reply;
  for (std::size_t attempt = 0; attempt <= options_.retries; ++attempt) {
    detail::PostOutcome outcome = detail::curl_post(connection, target, payload, authorization_, route, options_, reply_cap(options_, request));
    // Before anything reads the server's words (an excerpt cut at 200 bytes could keep most of a key
    // that straddles the cut): the key, raw or JSON-escaped, goes from everything that came back.
    outcome.body = redaction_.text(std::move(outcome.body));
    outcome.location = redaction_.text(std::move(outcome.location));
    outcome.failure = redaction_.text(std::move(outcome.failure));
    bool final = outcome.final;
    if (!outcome.failure.empty()) {
      reply = {nullptr, std::move(outcome.failure), outcome.status};
    } else if (outcome.status != 200) {
      reply = {nullptr, status_failure(outcome), outcome.status};
      final = !status_is_retryable(outcome.status);
    } else {
      std::size_t depth = 0;
      reply = read_reply_body(std::move(outcome.body), outcome.status, depth);
      final = depth > kMaxReplyJsonDepth;
      if (reply.ok()) {
        redaction_.json(reply.body);
        if (std::string why = check(reply.body); !why.empty()) {
          reply = {nullptr, std::move(why), outcome.status};
          final = true;  // the same request gets the same kind of answer
        }
      }
    }
    reply.failure = redaction_.text(std::move(reply.failure));
    if (reply.ok() || final || attempt == options_.retries) break;
    const double wait = retry_wait_seconds(options_, attempt + 1, outcome.retry_after, seed);
    if (outcome.retry_after > options_.deadline_seconds) {
      reply.failure += " (the server asks to retry after " + std::to_string(static_cast<long long>(outcome.retry_after)) +
                       " s, longer than the deadline: not retried)";
      break;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
  }
  return reply;
}

std::vector<JsonReply> HttpTransport::exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) {
  std::vector<JsonReply> replies(requests.size());
  const std::size_t workers = std::min(options_.concurrency, std::max<std::size_t>(requests.size(), 1));
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    auto connection = take_connection();
    for (std::size_t i = next++; i < requests.size(); i = next++) {
      replies[i] = send(*connection, requests[i], check);
      if (!replies[i].ok()) spdlog::debug("{}{}: no reply ({})", url_, requests[i].path, replies[i].failure);
    }
    give_back(std::move(connection));
  };
  {
    std::vector<std::jthread> threads;
    threads.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work);
  }  // joined here, before the replies are handed out
  return replies;
}

}  // namespace claimrag::served
