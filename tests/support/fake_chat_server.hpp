#pragma once
// A fake OpenAI-compatible chat server for tests: a handler of POST /v1/chat/completions on an
// ephemeral port of 127.0.0.1, listening from construction until stop() or destruction.

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include <httplib.h>

namespace claimrag::testing {

class FakeChatServer {
 public:
  explicit FakeChatServer(httplib::Server::Handler handler) {
    server_.Post("/v1/chat/completions", std::move(handler));
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeChatServer() { stop(); }
  FakeChatServer(const FakeChatServer&) = delete;
  FakeChatServer& operator=(const FakeChatServer&) = delete;
  /// Stops listening; later requests find nothing there.
  void stop() {
    if (!thread_.joinable()) return;
    server_.stop();
    thread_.join();
  }
  /// The API's base URL: http://127.0.0.1:PORT/v1.
  [[nodiscard]] std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

/// A chat completion whose one choice's message says `content`.
inline std::string completion(const std::string& content) {
  return nlohmann::json{{"choices", {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}}}}}}.dump();
}

}  // namespace claimrag::testing
