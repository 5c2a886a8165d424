#pragma once
// An OpenAI-compatible chat server inside the test process, on an ephemeral port of 127.0.0.1,
// for command-line tests that run the claimrag binary against it. The test gives the handler.

#include <httplib.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

namespace claimrag::testing {

/// A server answering POST /v1/chat/completions with `handler`; stopped and joined on destruction.
class FakeChatServer {
 public:
  explicit FakeChatServer(httplib::Server::Handler handler) {
    server_.Post("/v1/chat/completions", std::move(handler));
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeChatServer() {
    server_.stop();
    thread_.join();
  }
  FakeChatServer(const FakeChatServer&) = delete;
  FakeChatServer& operator=(const FakeChatServer&) = delete;
  /// The base URL a command is given (llm:<this>).
  [[nodiscard]] std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

/// The prompt of a chat request (its first message's content).
inline std::string prompt_of(const httplib::Request& request) {
  return nlohmann::json::parse(request.body).at("messages").at(0).at("content").get<std::string>();
}

/// A chat completion whose answer is `content`.
inline std::string completion(const std::string& content) {
  return nlohmann::json{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}}}}}.dump();
}

}  // namespace claimrag::testing
