#pragma once
// What a command that talks to a served model is given: the endpoint's rules, and whether it
// records its exchanges or replays them offline. Built from the same flags in every subcommand
// (src/cli/served_flags.hpp): --api-key-env, --timeout, --deadline, --max-reply-bytes, --retries,
// --concurrency, --record FILE, --replay FILE.

#include <filesystem>
#include <memory>

#include "claimrag/served/endpoint.hpp"
#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

struct ServedOptions {
  EndpointOptions endpoint;          ///< endpoint.url is set by the spec (llm:URL, tei:URL)
  std::filesystem::path record;      ///< every exchange written here; empty: not recorded
  std::filesystem::path replay;      ///< answer from this recording, offline; empty: live
};

/// replay set: a ReplayTransport over it (record must then be empty: UsageError); else an
/// HttpTransport, inside a RecordingTransport when record is set. check_endpoint_options first.
std::unique_ptr<Transport> open_transport(const ServedOptions& options);

/// Where a command records by default: `out` with its extension replaced by ".recording.jsonl"
/// ("verdicts.jsonl" → "verdicts.recording.jsonl").
std::filesystem::path default_recording_path(const std::filesystem::path& out);

}  // namespace claimrag::served
