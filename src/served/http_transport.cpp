#include "claimrag/served/http_transport.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "claimrag/error.hpp"

namespace claimrag::served {
namespace {

std::chrono::microseconds microseconds(double seconds) {
  return std::chrono::microseconds(static_cast<std::int64_t>(std::llround(seconds * 1e6)));
}

/// What a watchdog needs to end an attempt that outlives its deadline: httplib's timeouts bound
/// each wait for a byte, not the whole exchange.
struct AttemptClock {
  std::mutex mutex;
  httplib::Client* client = nullptr;
  std::chrono::steady_clock::time_point deadline;
  bool running = false;
  bool expired = false;
};

/// Ends (Client::stop) every running attempt whose deadline has passed, until destroyed.
class Watchdog {
 public:
  explicit Watchdog(std::vector<AttemptClock>& clocks)
      : clocks_(clocks), thread_([this](std::stop_token stop) { watch(stop); }) {}

 private:
  void watch(const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      const auto now = std::chrono::steady_clock::now();
      for (auto& clock : clocks_) {
        std::lock_guard lock(clock.mutex);
        if (clock.running && !clock.expired && now >= clock.deadline) {
          clock.expired = true;
          clock.client->stop();  // the blocked read returns, and the attempt fails
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  std::vector<AttemptClock>& clocks_;
  std::jthread thread_;
};

/// The first bytes of an error reply, on one line: enough to say why ("response_format is not
/// supported"), bounded so that an HTML page does not flood the log.
std::string excerpt(const std::string& body) {
  std::string text = body.substr(0, 200);
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return body.size() > 200 ? text + "..." : text;
}

JsonReply attempt_once(httplib::Client& client, const std::string& path, const std::string& payload,
                       const ReplyCheck& check, const EndpointOptions& options, AttemptClock& clock) {
  httplib::Request request;
  request.method = "POST";
  request.path = path;
  request.body = payload;
  request.set_header("Content-Type", "application/json");
  std::string reply;
  bool cut = false;
  bool late = false;
  const auto deadline = std::chrono::steady_clock::now() + microseconds(options.deadline_seconds);
  request.content_receiver = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
    if (reply.size() + length > options.max_reply_bytes) {
      cut = true;  // stop reading: a runaway reply must not take the memory
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      late = true;  // the watchdog's stop() ends a blocked read; this ends a reply arriving in pieces
      return false;
    }
    reply.append(data, length);
    return true;
  };
  {
    std::lock_guard lock(clock.mutex);
    clock.client = &client;
    clock.deadline = deadline;
    clock.running = true;
    clock.expired = false;
  }
  httplib::Response response;
  httplib::Error error = httplib::Error::Success;
  const bool sent = client.send(request, response, error);
  bool expired = false;
  {
    std::lock_guard lock(clock.mutex);
    clock.running = false;
    expired = clock.expired;
  }
  const int status = sent ? response.status : 0;
  if (cut) return {nullptr, "the reply is longer than " + std::to_string(options.max_reply_bytes) + " bytes (--max-reply-bytes)", status};
  if (expired || late) {
    return {nullptr, "no complete reply within the deadline of " + std::to_string(options.deadline_seconds) + " s", status};
  }
  if (!sent) {
    // httplib names the failing step in one word ("Connection", "Read"): say what it means.
    return {nullptr,
            error == httplib::Error::Connection ? "could not connect to the server (Connection)"
                                                : "the exchange failed (" + httplib::to_string(error) + ")",
            0};
  }
  if (status != 200) return {nullptr, "HTTP status " + std::to_string(status) + ": " + excerpt(reply), status};
  // A proxy's HTML error page, a truncated body or another API's shape: not an answer.
  auto parsed = nlohmann::json::parse(reply, nullptr, false);
  if (parsed.is_discarded()) return {nullptr, "the body is not JSON", status};
  if (std::string why = check(parsed); !why.empty()) return {nullptr, std::move(why), status};
  return {std::move(parsed), "", status};
}

}  // namespace

HttpTransport::HttpTransport(EndpointOptions options) : options_(std::move(options)) {
  check_endpoint_options(options_);
  url_ = normalized_url(options_.url);
  const auto host_start = url_.find("://") + 3;
  const auto path_start = url_.find('/', host_start);
  scheme_host_port_ = url_.substr(0, path_start);
  base_path_ = path_start == std::string::npos ? std::string() : url_.substr(path_start);
  if (const char* key = std::getenv(options_.api_key_variable.c_str())) api_key_ = key;
}

std::vector<JsonReply> HttpTransport::exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) {
  std::vector<JsonReply> replies(requests.size());
  const std::size_t workers = std::min(options_.concurrency, std::max<std::size_t>(requests.size(), 1));
  std::vector<AttemptClock> clocks(workers);
  std::atomic<std::size_t> next{0};
  const auto work = [&](AttemptClock& clock) {
    httplib::Client client(scheme_host_port_);
    client.set_connection_timeout(microseconds(options_.timeout_seconds));
    client.set_read_timeout(microseconds(options_.timeout_seconds));
    client.set_write_timeout(microseconds(options_.timeout_seconds));
    if (!api_key_.empty()) client.set_bearer_token_auth(api_key_);
    for (std::size_t i = next++; i < requests.size(); i = next++) {
      const std::string path = base_path_ + requests[i].path;
      const std::string payload = requests[i].body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      JsonReply reply;
      for (std::size_t attempt = 0; attempt <= options_.retries; ++attempt) {
        if (attempt > 0) {
          std::this_thread::sleep_for(microseconds(options_.backoff_seconds * std::ldexp(1.0, static_cast<int>(attempt - 1))));
        }
        reply = attempt_once(client, path, payload, check, options_, clock);
        if (reply.ok() || (reply.status != 0 && !status_is_retryable(reply.status))) break;
      }
      if (!reply.ok()) spdlog::debug("{}{}: no reply ({})", url_, requests[i].path, reply.failure);
      replies[i] = std::move(reply);
    }
  };
  {
    const Watchdog watchdog(clocks);
    std::vector<std::jthread> threads;
    threads.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work, std::ref(clocks[w]));
  }  // joined here (the workers, then the watchdog), before the replies are handed out
  return replies;
}

}  // namespace claimrag::served
