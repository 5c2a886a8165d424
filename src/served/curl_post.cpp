#include "curl_post.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include "claimrag/error.hpp"

namespace claimrag::served::detail {
namespace {

void initialize_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw InternalError("libcurl could not be initialized");
  });
}

std::string environment(const char* upper, const char* lower) {
  if (const char* value = std::getenv(upper); value != nullptr && *value != '\0') return value;
  if (const char* value = std::getenv(lower); value != nullptr && *value != '\0') return value;
  return "";
}

std::string seconds_text(double seconds) {
  std::string text = std::to_string(seconds);
  while (text.size() > 1 && text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

/// What the callbacks see while one reply arrives.
struct Receiving {
  std::size_t reply_cap = 0;
  std::size_t line_cap = 0;
  std::size_t block_cap = 0;
  std::string body;
  std::size_t header_bytes = 0;
  bool body_cut = false;
  bool line_too_long = false;
  bool block_too_long = false;
  std::chrono::steady_clock::time_point last_byte = std::chrono::steady_clock::now();  ///< sent or received
  curl_off_t sent = 0;
};

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t uploaded) {
  auto& receiving = *static_cast<Receiving*>(user);
  if (uploaded != receiving.sent) {
    receiving.sent = uploaded;
    receiving.last_byte = std::chrono::steady_clock::now();
  }
  return 0;
}

std::size_t on_header_line(char* data, std::size_t size, std::size_t count, void* user) {
  auto& receiving = *static_cast<Receiving*>(user);
  const std::size_t length = size * count;
  (void)data;
  receiving.last_byte = std::chrono::steady_clock::now();
  receiving.header_bytes += length;
  if (length > receiving.line_cap) {
    receiving.line_too_long = true;
    return 0;  // libcurl stops the transfer
  }
  if (receiving.header_bytes > receiving.block_cap) {
    receiving.block_too_long = true;
    return 0;
  }
  return length;
}

std::size_t on_body_bytes(char* data, std::size_t size, std::size_t count, void* user) {
  auto& receiving = *static_cast<Receiving*>(user);
  const std::size_t length = size * count;
  receiving.last_byte = std::chrono::steady_clock::now();
  if (receiving.body.size() + length > receiving.reply_cap) {
    receiving.body_cut = true;  // a runaway reply must not take the memory
    return 0;
  }
  receiving.body.append(data, length);
  return length;
}

/// libcurl's header lists, freed on every path.
struct HeaderList {
  curl_slist* list = nullptr;
  ~HeaderList() { curl_slist_free_all(list); }
  void add(const std::string& line) {
    curl_slist* grown = curl_slist_append(list, line.c_str());
    if (grown == nullptr) throw InternalError("libcurl could not allocate a header");
    list = grown;
  }
};

PostOutcome failed(std::string why, bool final = false) {
  PostOutcome outcome;
  outcome.failure = std::move(why);
  outcome.final = final;
  return outcome;
}

/// The failure of a transfer libcurl ended early, in the endpoint's terms.
PostOutcome failed_transfer(CURLcode code, const std::string& detail, const Receiving& receiving,
                            const EndpointOptions& options, bool connected, bool idle) {
  const std::string why = detail.empty() ? curl_easy_strerror(code) : detail;
  if (receiving.body_cut) {
    return failed("the reply is longer than " + std::to_string(receiving.reply_cap) + " bytes (--max-reply-bytes)", true);
  }
  // libcurl refuses a header line longer than its own buffer (100 KiB) as out of memory, before
  // any of the body.
  if (receiving.line_too_long || (code == CURLE_OUT_OF_MEMORY && receiving.body.empty())) {
    return failed("the reply's status line or a header line is longer than " + std::to_string(receiving.line_cap) + " bytes", true);
  }
  if (receiving.block_too_long) {
    return failed("the reply's headers are longer than " + std::to_string(receiving.block_cap) + " bytes", true);
  }
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      // Ours, libcurl's connect timeout (the timeout, when shorter than the deadline), or the deadline.
      if (idle) return failed("no byte within the timeout of " + seconds_text(options.timeout_seconds) + " s");
      if (!connected && options.timeout_seconds < options.deadline_seconds) {
        return failed("could not connect within the timeout of " + seconds_text(options.timeout_seconds) + " s");
      }
      return failed("no complete reply within the deadline of " + seconds_text(options.deadline_seconds) + " s");
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return failed("could not connect to the server (" + why + ")");
    default:
      return failed("the exchange failed (" + why + ")");
  }
}

}  // namespace

CurlConnection::CurlConnection() {
  initialize_curl_once();
  handle_ = curl_easy_init();
  multi_ = curl_multi_init();
  if (handle_ == nullptr || multi_ == nullptr) throw InternalError("libcurl could not create a handle");
}

CurlConnection::~CurlConnection() {
  curl_easy_cleanup(static_cast<CURL*>(handle_));
  curl_multi_cleanup(static_cast<CURLM*>(multi_));
}

namespace {

/// Runs the transfer set up on `curl` through `multi` (whose connection cache keeps connections
/// between requests), ending it when no byte has gone either way for `idle_seconds`: libcurl's own
/// low-speed check counts whole seconds. `idle` tells whether that happened.
CURLcode perform(CURLM* multi, CURL* curl, Receiving& receiving, double idle_seconds, bool& idle) {
  if (curl_multi_add_handle(multi, curl) != CURLM_OK) throw InternalError("libcurl could not start a transfer");
  CURLcode result = CURLE_OK;
  idle = false;
  for (int running = 1; running > 0;) {
    if (curl_multi_perform(multi, &running) != CURLM_OK) {
      result = CURLE_FAILED_INIT;
      break;
    }
    if (running == 0) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - receiving.last_byte).count() > idle_seconds) {
      idle = true;
      result = CURLE_OPERATION_TIMEDOUT;
      break;
    }
    curl_multi_poll(multi, nullptr, 0, 20, nullptr);
  }
  int queued = 0;
  while (const CURLMsg* message = curl_multi_info_read(multi, &queued)) {
    if (message->msg == CURLMSG_DONE && message->easy_handle == curl) result = message->data.result;
  }
  curl_multi_remove_handle(multi, curl);
  return result;
}

}  // namespace

ProxyRoute proxy_from_environment(const std::string& url) {
  if (host_is_loopback(url)) return {};
  ProxyRoute route;
  route.proxy = url.starts_with("https://") ? environment("HTTPS_PROXY", "https_proxy") : environment("HTTP_PROXY", "http_proxy");
  if (route.proxy.empty()) route.proxy = environment("ALL_PROXY", "all_proxy");
  route.no_proxy = environment("NO_PROXY", "no_proxy");
  return route;
}

PostOutcome curl_post(CurlConnection& connection, const std::string& url, const std::string& payload,
                      const std::string& authorization, const ProxyRoute& route, const EndpointOptions& options,
                      std::size_t reply_cap) {
  CURL* curl = static_cast<CURL*>(connection.handle());
  Receiving receiving;
  receiving.reply_cap = reply_cap;
  receiving.line_cap = std::min(kMaxHeaderLineBytes, reply_cap);
  receiving.block_cap = std::min(kMaxHeaderBlockBytes, reply_cap);
  HeaderList headers;
  headers.add("Content-Type: application/json");
  headers.add("Expect:");  // no wait for "100 Continue" before a large body
  if (!authorization.empty()) headers.add("Authorization: " + authorization);
  char error[CURL_ERROR_SIZE] = {};
  const auto milliseconds = [](double seconds) { return static_cast<long>(std::ceil(seconds * 1000.0)); };
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_POST, 1L);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, payload.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.list);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, milliseconds(options.deadline_seconds));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(std::min(options.timeout_seconds, options.deadline_seconds)));
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &receiving);
  curl_easy_setopt(curl, CURLOPT_PROXY, route.proxy.c_str());
  curl_easy_setopt(curl, CURLOPT_NOPROXY, route.no_proxy.c_str());
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header_line);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &receiving);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body_bytes);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &receiving);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  receiving.last_byte = std::chrono::steady_clock::now();
  bool idle = false;
  const CURLcode code = perform(static_cast<CURLM*>(connection.multi()), curl, receiving, options.timeout_seconds, idle);
  curl_off_t connect_time = 0;
  const bool connected = (curl_easy_getinfo(curl, CURLINFO_CONNECT_TIME_T, &connect_time) == CURLE_OK && connect_time > 0) ||
                         receiving.sent > 0 || receiving.header_bytes > 0;
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  PostOutcome outcome = code == CURLE_OK ? PostOutcome{} : failed_transfer(code, error, receiving, options, connected, idle);
  outcome.status = static_cast<int>(status);
  if (code != CURLE_OK) return outcome;
  outcome.body = std::move(receiving.body);
  curl_off_t retry_after = 0;
  if (curl_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK && retry_after > 0) {
    outcome.retry_after = static_cast<double>(retry_after);
  }
  if (status >= 300 && status < 400) {
    const char* location = nullptr;
    curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
    if (location != nullptr) outcome.location = location;
  }
  return outcome;
}

}  // namespace claimrag::served::detail
