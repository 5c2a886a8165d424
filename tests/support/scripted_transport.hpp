#pragma once
// A served::Transport for unit tests: keeps every request it is given and answers each with the
// chat content (or failure) a function of the request's prompt chooses. No network.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claimrag/served/endpoint.hpp"
#include "claimrag/served/exchange.hpp"

namespace claimrag::testing {

/// What the scripted model does with one prompt.
struct ScriptedReply {
  std::string content;  ///< the chat answer's content
  std::string failure;  ///< non-empty: the exchange fails with this reason
};

class ScriptedTransport final : public served::Transport {
 public:
  explicit ScriptedTransport(std::function<ScriptedReply(const std::string& prompt)> script) : script_(std::move(script)) {}

  std::vector<served::JsonReply> exchange(std::span<const served::JsonRequest> requests, const served::ReplyCheck& check) override {
    std::vector<served::JsonReply> replies;
    for (const auto& request : requests) {
      requests_.push_back(request);
      const auto scripted = script_(request.body.at("messages").at(0).at("content").get<std::string>());
      served::JsonReply reply;
      if (!scripted.failure.empty()) {
        reply.failure = scripted.failure;
        reply.status = 503;
      } else {
        reply.body = {{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", scripted.content}}}}}}};
        reply.status = 200;
        reply.failure = check(reply.body);
        if (!reply.failure.empty()) reply.body = nullptr;
      }
      replies.push_back(std::move(reply));
    }
    return replies;
  }
  [[nodiscard]] const std::string& url() const override { return url_; }
  /// Every request received, in order.
  [[nodiscard]] const std::vector<served::JsonRequest>& requests() const { return requests_; }

 private:
  std::function<ScriptedReply(const std::string&)> script_;
  std::vector<served::JsonRequest> requests_;
  std::string url_ = "http://127.0.0.1:1/v1";
};

}  // namespace claimrag::testing
