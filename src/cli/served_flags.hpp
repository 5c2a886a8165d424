#pragma once
// The flags of every subcommand that can talk to a served model (--verifier llm:URL / tei:URL,
// --cross-encoder tei:URL, --encoder tei:URL, --judge, --generate): the endpoint's rules and
// recording. Their meaning is served/endpoint.hpp's and served/recording.hpp's.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/served/served_options.hpp"
#include "options.hpp"

namespace claimrag::cli {

struct ServedFlags {
  served::ServedOptions served;
  std::string llm_model;  ///< --llm-model: the model name sent to a chat endpoint
};

/// Adds --api-key-env, --timeout, --deadline, --max-reply-bytes, --retries, --concurrency,
/// --record and --replay, and --llm-model when `chat` (the command reaches a chat endpoint).
inline void add_served_flags(CLI::App& command, ServedFlags& flags, bool chat) {
  auto& endpoint = flags.served.endpoint;
  if (chat) command.add_option("--llm-model", flags.llm_model, "Served model: the model name sent to the chat endpoint");
  command.add_option("--api-key-env", endpoint.api_key_variable, "Served model: environment variable holding the API key")
      ->capture_default_str();
  command.add_option("--timeout", endpoint.timeout_seconds, "Served model: seconds each wait for a byte may take")
      ->capture_default_str()
      ->check(number_in(0.001, 86400));
  command.add_option("--deadline", endpoint.deadline_seconds,
                     "Served model: seconds a whole attempt may take, however slowly the reply arrives")
      ->capture_default_str()
      ->check(number_in(0.001, 86400));
  command.add_option("--max-reply-bytes", endpoint.max_reply_bytes, "Served model: a longer reply is cut and fails the attempt")
      ->capture_default_str()
      ->check(number_in(1, 1 << 30));
  command.add_option("--retries", endpoint.retries, "Served model: attempts after a failed one")
      ->capture_default_str()
      ->check(number_in(0, 100));
  command.add_option("--concurrency", endpoint.concurrency, "Served model: requests in flight")
      ->capture_default_str()
      ->check(number_in(1, 256));
  command.add_option("--record", flags.served.record,
                     "Served model: write every exchange here (default: beside --out, <out>.recording.jsonl)");
  command.add_option("--replay", flags.served.replay,
                     "Served model: answer from this recording, offline; a request it lacks is an error");
}

/// The served options of a command whose main output is `out`. When `served` (it talks to a served
/// model): recorded beside `out` by default (served::default_recording_path) unless it replays;
/// --replay with --record is a UsageError (a replay is not recorded again). When not served:
/// --record and --replay are UsageErrors. The returned record path is an output the command
/// declares.
inline served::ServedOptions resolve_served(const ServedFlags& flags, bool served, const std::filesystem::path& out) {
  served::ServedOptions options = flags.served;
  if (!served) {
    if (!options.record.empty() || !options.replay.empty()) {
      throw UsageError("--record and --replay apply to a served model (llm:URL, tei:URL)");
    }
    return options;
  }
  if (!options.replay.empty() && !options.record.empty()) throw UsageError("--replay reads a recording; give --record without it");
  if (options.replay.empty() && options.record.empty() && !out.empty()) options.record = served::default_recording_path(out);
  return options;
}

}  // namespace claimrag::cli
