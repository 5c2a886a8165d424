#pragma once
// Reading a chat-completions request and writing its reply, for tests whose fake server
// (support/fake_http_server.hpp) plays an OpenAI-compatible chat endpoint.

#include "httplib.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace claimrag::testing {

/// The prompt of a chat request (its first message's content).
inline std::string prompt_of(const httplib::Request& request) {
  return nlohmann::json::parse(request.body).at("messages").at(0).at("content").get<std::string>();
}

/// A chat completion whose answer is `content`.
inline std::string completion(const std::string& content) {
  return nlohmann::json{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}}}}}.dump();
}

}  // namespace claimrag::testing
