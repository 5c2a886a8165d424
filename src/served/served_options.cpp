#include "claimrag/served/served_options.hpp"

#include "claimrag/error.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/recording.hpp"

namespace claimrag::served {

std::unique_ptr<Transport> open_transport(const ServedOptions& options) {
  check_endpoint_options(options.endpoint);
  if (!options.replay.empty()) {
    if (!options.record.empty()) throw UsageError("--replay reads a recording; give --record without it");
    return std::make_unique<ReplayTransport>(options.replay, options.endpoint.url, options.endpoint.max_reply_bytes);
  }
  auto live = std::make_unique<HttpTransport>(options.endpoint);
  if (options.record.empty()) return live;
  return std::make_unique<RecordingTransport>(std::move(live), options.record, options.endpoint.max_reply_bytes);
}

std::filesystem::path default_recording_path(const std::filesystem::path& out) {
  std::filesystem::path path = out;
  path.replace_extension(".recording.jsonl");
  return path;
}

}  // namespace claimrag::served
