#pragma once
// A local HTTP server for tests of served backends: httplib::Server on an ephemeral port of
// 127.0.0.1, started on construction, stopped and joined on destruction. Nothing leaves the machine.

#include "httplib.hpp"

#include <chrono>
#include <string>
#include <thread>

namespace claimrag::testing {

class FakeHttpServer {
 public:
  /// Serves POST `path` with `handler`.
  FakeHttpServer(const std::string& path, httplib::Server::Handler handler) {
    server_.Post(path, std::move(handler));
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakeHttpServer() {
    server_.stop();
    thread_.join();
  }
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;
  /// http://127.0.0.1:PORT followed by `path` ("/v1" for a chat API's base URL).
  [[nodiscard]] std::string url(const std::string& path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace claimrag::testing
