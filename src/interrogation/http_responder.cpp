#include "claimrag/interrogation/http_responder.hpp"

#include <spdlog/spdlog.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/served/chat.hpp"
#include "claimrag/served/http_transport.hpp"

namespace claimrag::interrogation {

served::EndpointOptions endpoint_options(const HttpResponderOptions& options) {
  served::EndpointOptions endpoint;
  endpoint.url = options.endpoint;
  endpoint.api_key_variable = options.api_key_variable;
  endpoint.timeout_seconds = options.timeout_seconds;
  endpoint.deadline_seconds = options.deadline_seconds;
  endpoint.max_reply_bytes = options.max_reply_bytes;
  endpoint.retries = options.retries;
  endpoint.backoff_seconds = options.backoff_seconds;
  endpoint.concurrency = options.concurrency;
  return endpoint;
}

HttpResponder::HttpResponder(HttpResponderOptions options) : options_(std::move(options)) {
  if (options_.model.empty()) throw UsageError("the http responder needs --llm-model");
  if (!(options_.temperature >= 0.0) || !std::isfinite(options_.temperature)) {
    throw UsageError("the sampling temperature must be a finite number >= 0, got " + std::to_string(options_.temperature));
  }
  transport_ = std::make_unique<served::HttpTransport>(endpoint_options(options_));
}

std::vector<std::vector<std::string>> HttpResponder::respond(std::span<const ProbeRequest> requests,
                                                             std::size_t samples) {
  // Sample k of request i is request i * samples + k: the same body K times, each its own draw.
  const served::ChatOptions chat{.model = options_.model, .temperature = options_.temperature};
  std::vector<served::JsonRequest> bodies;
  bodies.reserve(requests.size() * samples);
  for (const ProbeRequest& request : requests) {
    const served::JsonRequest body = served::chat_request(request.prompt, chat);
    for (std::size_t k = 0; k < samples; ++k) bodies.push_back(body);
  }
  const std::vector<served::JsonReply> replies = transport_->exchange(bodies, served::check_chat_reply);
  std::vector<std::vector<std::string>> answers(requests.size(), std::vector<std::string>(samples));
  asked_ = requests;
  failed_.assign(requests.size(), std::vector<std::string>(samples));
  for (std::size_t i = 0; i < requests.size(); ++i) {
    for (std::size_t k = 0; k < samples; ++k) {
      const served::JsonReply& reply = replies[i * samples + k];
      if (reply.ok()) {
        answers[i][k] = served::chat_content(reply.body);
        continue;
      }
      ++failures_;
      failed_[i][k] = reply.failure;
      spdlog::warn("no answer for pair '{}', probe '{}', sample {} ({}): counted as Neutral", requests[i].pair->id,
                   requests[i].probe->id, k, reply.failure);
    }
  }
  return answers;
}

std::string HttpResponder::failure(const ProbeRequest& request, std::size_t sample) const {
  if (asked_.empty() || &request < asked_.data() || &request >= asked_.data() + asked_.size()) return {};
  const auto index = static_cast<std::size_t>(&request - asked_.data());
  return sample < failed_[index].size() ? failed_[index][sample] : std::string();
}

}  // namespace claimrag::interrogation
