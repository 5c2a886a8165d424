#include "claimrag/served/recording.hpp"

#include <spdlog/spdlog.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_set>

#include "claimrag/dataset/jsonl.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/file_output.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/io/output_target.hpp"
#include "claimrag/io/temporary_names.hpp"
#include "claimrag/served/endpoint.hpp"

namespace claimrag::served {
namespace {

/// JSON text as claimrag writes it everywhere: keys sorted (nlohmann::json's maps), no spaces,
/// invalid UTF-8 replaced rather than thrown on (a model's reply is not ours to refuse here).
std::string canonical(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parse_element(simdjson::dom::element element) {
  return nlohmann::json::parse(simdjson::minify(element));
}

}  // namespace

std::size_t recording_line_limit(std::size_t max_reply_bytes) {
  const std::size_t headroom = dataset::kMaxJsonLineBytes;
  return max_reply_bytes > (SIZE_MAX - headroom) / 4 ? SIZE_MAX : headroom + 4 * max_reply_bytes;
}

std::string exchange_key(const std::string& url, const JsonRequest& request) {
  return io::checksum_hex(normalized_url(url) + '\n' + request.path + '\n' + canonical(request.body));
}

class RecordingFile {
 public:
  explicit RecordingFile(std::filesystem::path file) : file_(std::move(file)) {}
  ~RecordingFile() {
    if (!out_) return;
    try {
      out_->finish();
    } catch (const Error& error) {
      spdlog::error("{}", error.what());
    }
  }
  RecordingFile(const RecordingFile&) = delete;
  RecordingFile& operator=(const RecordingFile&) = delete;

  /// Adds the exchanges not recorded yet at the file's end. The file is written as it grows: the
  /// first call opens a temporary beside it and hands it over as the output — to the command's
  /// output plan, which renames it with the other outputs (or removes it when the command fails),
  /// or, with no plan, renamed into place — and every call appends its lines through that open
  /// file and flushes them, so a run of N exchanges writes each line once.
  void add(const std::string& url, std::span<const JsonRequest> requests, std::vector<JsonReply>& replies,
           std::size_t max_reply_bytes) {
    const std::lock_guard lock(mutex_);
    if (!out_) open();
    const std::size_t limit = recording_line_limit(max_reply_bytes);
    for (std::size_t i = 0; i < requests.size(); ++i) {
      std::string key = exchange_key(url, requests[i]);
      if (!keys_.insert(key).second) continue;
      const nlohmann::ordered_json head = {{"key", std::move(key)}, {"url", normalized_url(url)}, {"path", requests[i].path},
                                           {"request", requests[i].body}};
      std::string line = recorded_line(head, replies[i]);
      if (line.size() > limit) {
        // Never a line the replay refuses: the exchange fails here as it would there.
        replies[i] = {nullptr, "the exchange is too long to record (" + std::to_string(line.size()) + " bytes; a recording's line limit is " +
                                   std::to_string(limit) + " bytes at --max-reply-bytes " + std::to_string(max_reply_bytes) + ")",
                      replies[i].status};
        line = recorded_line(head, replies[i]);
      }
      out_->stream() << line << '\n';
    }
    out_->stream().flush();
    if (!out_->stream()) throw DataError(file_.string(), "cannot write the recording");
  }

 private:
  static std::string recorded_line(nlohmann::ordered_json record, const JsonReply& reply) {
    if (reply.ok()) {
      record["reply"] = reply.body;
    } else {
      record["failed"] = reply.failure;
      record["status"] = reply.status;
    }
    return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  void open() {
    const io::OutputTarget target = io::resolve_output(file_);
    if (target.write_through) {  // a device or FIFO: written in place
      out_ = std::make_unique<io::FileOutput>(target.path, file_.string());
      return;
    }
    const std::filesystem::path temporary = io::temporary_path_for(target.path);
    io::prepare_to_write(target.path);
    out_ = std::make_unique<io::FileOutput>(temporary, file_.string());
    if (io::OutputPlan* plan = io::OutputPlan::active(); plan != nullptr && plan->declares(target.path)) {
      plan->defer(temporary, target.path);
      return;
    }
    std::error_code error;
    std::filesystem::rename(temporary, target.path, error);
    if (error) throw DataError(file_.string(), "cannot move into place: " + error.message());
  }

  std::filesystem::path file_;
  std::mutex mutex_;
  std::unique_ptr<io::FileOutput> out_;
  std::unordered_set<std::string> keys_;
};

namespace {

/// The recordings open in this process, by file, so that transports recording to one file share it.
std::shared_ptr<RecordingFile> open_recording_file(const std::filesystem::path& file) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<RecordingFile>> open;
  const std::lock_guard lock(mutex);
  const std::string name = std::filesystem::weakly_canonical(std::filesystem::absolute(file)).string();
  if (auto shared = open[name].lock()) return shared;
  auto created = std::make_shared<RecordingFile>(file);
  open[name] = created;
  return created;
}

}  // namespace

RecordingTransport::RecordingTransport(std::unique_ptr<Transport> inner, const std::filesystem::path& file,
                                       std::size_t max_reply_bytes)
    : inner_(std::move(inner)), file_(open_recording_file(file)), max_reply_bytes_(max_reply_bytes) {}

RecordingTransport::~RecordingTransport() = default;

std::vector<JsonReply> RecordingTransport::exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) {
  std::vector<JsonReply> replies = inner_->exchange(requests, check);
  file_->add(inner_->url(), requests, replies, max_reply_bytes_);
  return replies;
}

ReplayTransport::ReplayTransport(const std::filesystem::path& file, const std::string& url, std::size_t max_reply_bytes)
    : file_(file), url_(normalized_url(url)) {
  dataset::for_each_json_object(file_, [&](simdjson::dom::object object, std::size_t line) {
    const dataset::FieldReader fields(object, file_, line);
    fields.refuse_unknown({"key", "url", "path", "request", "reply", "failed", "status"});
    const std::string key = fields.string("key");
    const std::string recorded_url = fields.string("url");
    JsonRequest request{fields.string("path"), parse_element(fields.element("request"))};
    if (exchange_key(recorded_url, request) != key) {
      fields.fail("\"key\" is not the content address of the line's url, path and request (an edited recording?)");
    }
    JsonReply reply;
    if (fields.has("reply") == fields.has("failed")) fields.fail("a line holds either \"reply\" or \"failed\"");
    if (fields.has("reply")) {
      const std::string text = simdjson::minify(fields.element("reply"));
      // The live transport refuses a reply nested deeper than this before parsing it; a recording
      // edited to hold one is refused the same, so replaying cannot reach what a server cannot.
      if (io::json_nesting_depth(text, kMaxReplyJsonDepth) > kMaxReplyJsonDepth) {
        fields.fail("\"reply\" nests deeper than " + std::to_string(kMaxReplyJsonDepth) +
                    " levels of arrays and objects, the limit of a live reply");
      }
      reply.body = nlohmann::json::parse(text);
      reply.status = 200;
    } else {
      reply.failure = fields.string("failed");
      if (reply.failure.empty()) fields.fail("\"failed\" must say why the exchange failed");
      std::int64_t status = 0;
      if (fields.has("status") && (fields.element("status").get_int64().get(status) || status < 0 || status > 999)) {
        fields.fail("\"status\" must be an HTTP status (0 when none came)");
      }
      reply.status = static_cast<int>(status);
    }
    if (!replies_.emplace(key, std::move(reply)).second) fields.fail("a second exchange with key " + key);
    used_.emplace(key, false);
  }, recording_line_limit(max_reply_bytes));
}

std::vector<JsonReply> ReplayTransport::exchange(std::span<const JsonRequest> requests, const ReplyCheck& check) {
  std::vector<JsonReply> replies;
  replies.reserve(requests.size());
  for (const JsonRequest& request : requests) {
    const std::string key = exchange_key(url_, request);
    const auto found = replies_.find(key);
    if (found == replies_.end()) {
      throw DataError(file_.string(), "no recorded exchange for POST " + url_ + request.path + " (key " + key + "; the recording holds " +
                                          std::to_string(replies_.size()) +
                                          " exchanges: was it made with other inputs, endpoint, model, prompt or parameters?)");
    }
    used_[key] = true;
    JsonReply reply = found->second;
    if (reply.ok()) {
      if (std::string why = check(reply.body); !why.empty()) reply = {nullptr, std::move(why), reply.status};
    }
    replies.push_back(std::move(reply));
  }
  return replies;
}

std::size_t ReplayTransport::unused() const {
  std::size_t count = 0;
  for (const auto& [key, used] : used_) count += used ? 0 : 1;
  return count;
}

}  // namespace claimrag::served
