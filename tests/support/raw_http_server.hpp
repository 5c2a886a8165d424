#pragma once
// A local TCP server on an ephemeral port of 127.0.0.1 that answers each connection with whatever
// bytes a test writes, well-formed HTTP or not: an endless status line, a header that never ends,
// a chunk size without end, a reply dripped a byte at a time. Each connection's request (headers
// and Content-Length body) is read first and handed to the test's writer with the socket. Writers
// must stop on their own (bounded loops; a failed send means the client has gone); the server
// stops accepting and joins its threads on destruction. Nothing leaves the machine.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace claimrag::testing {

class RawHttpServer {
 public:
  /// Writes the answer to one request on `socket`; returns when done (the server then closes it).
  using Writer = std::function<void(int socket, const std::string& request)>;

  explicit RawHttpServer(Writer writer) : writer_(std::move(writer)) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 16) != 0) {
      throw std::runtime_error("RawHttpServer: cannot listen on 127.0.0.1");
    }
    socklen_t length = sizeof address;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~RawHttpServer() {
    stopping_ = true;
    acceptor_.join();
    ::close(listener_);
    const std::lock_guard lock(mutex_);
    for (auto& connection : connections_) connection.join();
  }
  RawHttpServer(const RawHttpServer&) = delete;
  RawHttpServer& operator=(const RawHttpServer&) = delete;

  /// http://127.0.0.1:PORT followed by `path`.
  [[nodiscard]] std::string url(const std::string& path = "") const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  /// Connections accepted so far.
  [[nodiscard]] int connections() const { return accepted_.load(); }
  /// Whether the server is being destroyed: endless writers stop.
  [[nodiscard]] bool stopping() const { return stopping_.load(); }

  /// Sends all of `bytes`; false when the client has gone.
  static bool send_all(int socket, std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t sent = ::send(socket, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (sent <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(sent));
    }
    return true;
  }

 private:
  void accept_loop() {
    while (!stopping_) {
      pollfd ready{listener_, POLLIN, 0};
      if (::poll(&ready, 1, 20) <= 0) continue;
      const int socket = ::accept(listener_, nullptr, nullptr);
      if (socket < 0) continue;
      ++accepted_;
      const std::lock_guard lock(mutex_);
      connections_.emplace_back([this, socket] {
        writer_(socket, read_request(socket));
        ::shutdown(socket, SHUT_RDWR);
        ::close(socket);
      });
    }
  }

  /// The request's headers and Content-Length body (bounded by what a test sends).
  static std::string read_request(int socket) {
    std::string request;
    char buffer[65536];
    std::size_t body_start = std::string::npos;
    std::size_t length = 0;
    while (true) {
      if (body_start == std::string::npos) {
        body_start = request.find("\r\n\r\n");
        if (body_start != std::string::npos) {
          body_start += 4;
          std::string lowered = request.substr(0, body_start);
          for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          if (const auto at = lowered.find("content-length:"); at != std::string::npos) {
            length = std::stoul(lowered.substr(at + 15));
          }
        }
      }
      if (body_start != std::string::npos && request.size() >= body_start + length) return request;
      const ssize_t got = ::recv(socket, buffer, sizeof buffer, 0);
      if (got <= 0) return request;
      request.append(buffer, static_cast<std::size_t>(got));
    }
  }

  Writer writer_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> accepted_{0};
  std::thread acceptor_;
  std::mutex mutex_;
  std::vector<std::thread> connections_;
};

}  // namespace claimrag::testing
