#include "claimrag/interrogation/http_responder.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <mutex>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "claimrag/error.hpp"

namespace claimrag::interrogation {
namespace {

struct Attempt {
  std::optional<std::string> answer;
  std::string failure;
};

/// What a watchdog needs to end an attempt that outlives its deadline: httplib's timeouts bound
/// each wait for a byte, not the whole exchange.
struct AttemptClock {
  std::mutex mutex;
  httplib::Client* client = nullptr;
  std::chrono::steady_clock::time_point deadline;
  bool running = false;
  bool expired = false;
};

/// Ends (Client::stop) every running attempt whose deadline has passed, until `done`.
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

Attempt attempt_once(httplib::Client& client, const std::string& path, const std::string& body, std::size_t max_bytes,
                     AttemptClock& clock, double deadline_seconds) {
  httplib::Request request;
  request.method = "POST";
  request.path = path;
  request.body = body;
  request.set_header("Content-Type", "application/json");
  std::string reply;
  bool cut = false;
  bool late = false;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::microseconds(static_cast<std::int64_t>(std::llround(deadline_seconds * 1e6)));
  request.content_receiver = [&](const char* data, std::size_t length, std::uint64_t, std::uint64_t) {
    if (reply.size() + length > max_bytes) {
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
  if (cut) return {std::nullopt, "the reply is longer than " + std::to_string(max_bytes) + " bytes (--max-reply-bytes)"};
  if (expired || late) return {std::nullopt, "no complete reply within the deadline of " + std::to_string(deadline_seconds) + " s"};
  if (!sent) return {std::nullopt, httplib::to_string(error)};
  if (response.status != 200) return {std::nullopt, "HTTP status " + std::to_string(response.status)};
  // A proxy's HTML error page, a truncated body or another API's shape: not an answer.
  const auto parsed = nlohmann::json::parse(reply, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return {std::nullopt, "the body is not JSON"};
  const auto choices = parsed.find("choices");
  if (choices == parsed.end() || !choices->is_array() || choices->empty()) {
    return {std::nullopt, "the reply has no choices"};
  }
  const auto& first = (*choices)[0];
  if (!first.is_object() || !first.contains("message") || !first["message"].is_object() ||
      !first["message"].contains("content") || !first["message"]["content"].is_string()) {
    return {std::nullopt, "the reply has no choices[0].message.content"};
  }
  return {first["message"]["content"].get<std::string>(), ""};
}

std::chrono::microseconds microseconds(double seconds) {
  return std::chrono::microseconds(static_cast<std::int64_t>(std::llround(seconds * 1e6)));
}

}  // namespace

HttpResponder::HttpResponder(HttpResponderOptions options) : options_(std::move(options)) {
  const std::string& url = options_.endpoint;
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos || (url.compare(0, scheme_end, "http") != 0 && url.compare(0, scheme_end, "https") != 0) ||
      scheme_end + 3 >= url.size()) {
    throw UsageError("--endpoint must be an http:// or https:// base URL, got '" + url + "'");
  }
  const auto path_start = url.find('/', scheme_end + 3);
  scheme_host_port_ = url.substr(0, path_start);
  path_ = path_start == std::string::npos ? std::string() : url.substr(path_start);
  while (!path_.empty() && path_.back() == '/') path_.pop_back();
  path_ += "/chat/completions";
  if (options_.model.empty()) throw UsageError("the http responder needs --llm-model");
  if (options_.concurrency == 0) throw UsageError("the concurrency must be at least 1");
  if (!(options_.timeout_seconds > 0.0) || !std::isfinite(options_.timeout_seconds)) {
    throw UsageError("the timeout must be a positive number of seconds");
  }
  if (!(options_.deadline_seconds > 0.0) || !std::isfinite(options_.deadline_seconds)) {
    throw UsageError("the deadline must be a positive number of seconds");
  }
  if (!(options_.temperature >= 0.0) || !std::isfinite(options_.temperature)) {
    throw UsageError("the sampling temperature must be a finite number >= 0, got " + std::to_string(options_.temperature));
  }
  if (options_.max_reply_bytes == 0) throw UsageError("the reply size cap must be at least 1 byte");
  if (!(options_.backoff_seconds >= 0.0) || !std::isfinite(options_.backoff_seconds)) {
    throw UsageError("the backoff must be a non-negative number of seconds");
  }
  if (const char* key = std::getenv(options_.api_key_variable.c_str())) api_key_ = key;
}

std::vector<std::vector<std::string>> HttpResponder::respond(std::span<const ProbeRequest> requests,
                                                             std::size_t samples) {
  std::vector<std::vector<std::string>> answers(requests.size(), std::vector<std::string>(samples));
  asked_ = requests;
  failed_.assign(requests.size(), std::vector<std::string>(samples));
  const std::size_t jobs = requests.size() * samples;
  const std::size_t workers = std::min(options_.concurrency, std::max<std::size_t>(jobs, 1));
  std::vector<AttemptClock> clocks(workers);
  std::atomic<std::size_t> next{0};
  const auto work = [&](AttemptClock& clock) {
    httplib::Client client(scheme_host_port_);
    client.set_connection_timeout(microseconds(options_.timeout_seconds));
    client.set_read_timeout(microseconds(options_.timeout_seconds));
    client.set_write_timeout(microseconds(options_.timeout_seconds));
    if (!api_key_.empty()) client.set_bearer_token_auth(api_key_);
    for (std::size_t job = next++; job < jobs; job = next++) {
      const std::size_t i = job / samples;
      const std::size_t k = job % samples;
      const nlohmann::json body = {
          {"model", options_.model},
          {"messages", nlohmann::json::array({{{"role", "user"}, {"content", requests[i].prompt}}})},
          {"temperature", options_.temperature}};
      const std::string payload = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      std::string failure;
      bool answered = false;
      for (std::size_t attempt = 0; attempt <= options_.retries && !answered; ++attempt) {
        if (attempt > 0) {
          std::this_thread::sleep_for(microseconds(options_.backoff_seconds * std::ldexp(1.0, static_cast<int>(attempt - 1))));
        }
        Attempt outcome = attempt_once(client, path_, payload, options_.max_reply_bytes, clock, options_.deadline_seconds);
        if (outcome.answer) {
          answers[i][k] = std::move(*outcome.answer);
          answered = true;
        } else {
          failure = std::move(outcome.failure);
        }
      }
      if (!answered) {
        ++failures_;
        failed_[i][k] = failure;
        spdlog::warn("no answer for pair '{}', probe '{}', sample {} after {} attempts ({}): counted as Neutral",
                     requests[i].pair->id, requests[i].probe->id, k, options_.retries + 1, failure);
      }
    }
  };
  {
    const Watchdog watchdog(clocks);
    std::vector<std::jthread> threads;
    threads.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work, std::ref(clocks[w]));
  }  // joined here (the workers, then the watchdog), before the answers are handed out
  return answers;
}

std::string HttpResponder::failure(const ProbeRequest& request, std::size_t sample) const {
  if (asked_.empty() || &request < asked_.data() || &request >= asked_.data() + asked_.size()) return {};
  const auto index = static_cast<std::size_t>(&request - asked_.data());
  return sample < failed_[index].size() ? failed_[index][sample] : std::string();
}

}  // namespace claimrag::interrogation
