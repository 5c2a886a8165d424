#include "claimrag/interrogation/http_responder.hpp"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>
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

Attempt attempt_once(httplib::Client& client, const std::string& path, const std::string& body) {
  const auto result = client.Post(path, body, "application/json");
  if (!result) return {std::nullopt, httplib::to_string(result.error())};
  if (result->status != 200) return {std::nullopt, "HTTP status " + std::to_string(result->status)};
  // A proxy's HTML error page, a truncated body or another API's shape: not an answer.
  const auto reply = nlohmann::json::parse(result->body, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) return {std::nullopt, "the body is not JSON"};
  const auto choices = reply.find("choices");
  if (choices == reply.end() || !choices->is_array() || choices->empty()) {
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
  if (!(options_.backoff_seconds >= 0.0) || !std::isfinite(options_.backoff_seconds)) {
    throw UsageError("the backoff must be a non-negative number of seconds");
  }
  if (const char* key = std::getenv(options_.api_key_variable.c_str())) api_key_ = key;
}

std::vector<std::vector<std::string>> HttpResponder::respond(std::span<const ProbeRequest> requests,
                                                             std::size_t samples) {
  std::vector<std::vector<std::string>> answers(requests.size(), std::vector<std::string>(samples));
  const std::size_t jobs = requests.size() * samples;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
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
        Attempt outcome = attempt_once(client, path_, payload);
        if (outcome.answer) {
          answers[i][k] = std::move(*outcome.answer);
          answered = true;
        } else {
          failure = std::move(outcome.failure);
        }
      }
      if (!answered) {
        ++failures_;
        spdlog::warn("no answer for pair '{}', probe '{}', sample {} after {} attempts ({}): counted as Neutral",
                     requests[i].pair->id, requests[i].probe->id, k, options_.retries + 1, failure);
      }
    }
  };
  const std::size_t workers = std::min(options_.concurrency, std::max<std::size_t>(jobs, 1));
  {
    std::vector<std::jthread> threads;
    threads.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) threads.emplace_back(work);
  }  // joined here, before the answers are handed out
  return answers;
}

}  // namespace claimrag::interrogation
