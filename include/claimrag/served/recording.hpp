#pragma once
// Recordings of served exchanges, for offline replay.
//
// A recording is JSON Lines, one exchange a line, in the order the run first asked for them:
//   {"key": K, "url": URL, "path": "/chat/completions", "request": {...}, "reply": {...}}
//   {"key": K, "url": URL, "path": "/predict", "request": {...}, "failed": "HTTP status 503", "status": 503}
// K is content-addressed: exchange_key(url, request), the XXH64 (hex) of the normalized URL, the
// path and the body serialized with sorted keys. The body holds the model, the prompt and every
// parameter, so a request asked with another model, prompt, temperature or input has another key.
// The API key travels in a header and is never part of a body, a key or a recording.
//
// A failure is recorded as a failure ("failed", the reason, and "status"), and replays as the same
// failure, never as an answer. Asked twice in one run, an exchange is recorded once.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "claimrag/served/endpoint.hpp"
#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

/// The longest line a recording holds, at the reply cap `max_reply_bytes`: room for the request
/// (dataset::kMaxJsonLineBytes) and for the reply written again (4 × the cap). The recorder turns an
/// exchange whose line would be longer into a failure, and the replay reads lines up to it, so a
/// recording never holds a line its replay refuses.
std::size_t recording_line_limit(std::size_t max_reply_bytes);

/// The content address of `request` sent to the endpoint `url` (normalized first).
std::string exchange_key(const std::string& url, const JsonRequest& request);

/// The exchanges recorded to one file. Shared by every RecordingTransport of the process that
/// records to the same file (a command reaching two endpoints, say an answer writer and a judge,
/// keeps one recording of both), and appended to after each exchange() of any of them.
class RecordingFile;

/// Live exchanges through `inner`, each written to `file`: after every exchange() call its new
/// lines are appended (each line written once) to the file a command's output plan commits with
/// its other outputs, or not at all. An exchange whose line would be longer than
/// recording_line_limit(max_reply_bytes) is recorded, and answered, as a failure.
class RecordingTransport final : public Transport {
 public:
  RecordingTransport(std::unique_ptr<Transport> inner, const std::filesystem::path& file,
                     std::size_t max_reply_bytes = EndpointOptions{}.max_reply_bytes);
  ~RecordingTransport() override;
  RecordingTransport(const RecordingTransport&) = delete;
  RecordingTransport& operator=(const RecordingTransport&) = delete;
  [[nodiscard]] std::vector<JsonReply> exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) override;
  [[nodiscard]] const std::string& url() const override { return inner_->url(); }

 private:
  std::unique_ptr<Transport> inner_;
  std::shared_ptr<RecordingFile> file_;
  std::size_t max_reply_bytes_;
};

/// Replies read from a recording, offline: nothing is sent. exchange() answers each request with
/// the recorded reply of its key (re-checked with the caller's check, so a reply the code would
/// refuse now is a failure now) or the recorded failure, and throws DataError naming the file, the
/// path and the key for a request the recording lacks ("made with other inputs, model or
/// parameters?"): filling gaps would change results silently.
class ReplayTransport final : public Transport {
 public:
  /// Reads the whole file: DataError `file:line` for malformed lines or repeated keys, and for a
  /// line whose key is not the key of its url, path and request (an edited recording).
  /// `url` is the endpoint the command names; requests are keyed with it. Lines may be up to
  /// recording_line_limit(max_reply_bytes) long.
  ReplayTransport(const std::filesystem::path& file, const std::string& url,
                  std::size_t max_reply_bytes = EndpointOptions{}.max_reply_bytes);
  [[nodiscard]] std::vector<JsonReply> exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) override;
  [[nodiscard]] const std::string& url() const override { return url_; }
  /// Recorded exchanges no request has asked for so far.
  [[nodiscard]] std::size_t unused() const;

 private:
  std::filesystem::path file_;
  std::string url_;
  std::unordered_map<std::string, JsonReply> replies_;
  std::unordered_map<std::string, bool> used_;
};

}  // namespace claimrag::served
