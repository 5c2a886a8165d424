#pragma once
// --shard K/N|slurm on the commands that process their inputs one record at a time, and the one
// seam through which each of them runs as a shard: the command's outputs, plus the manifest
// OUT.shard.json, are written as one set (shard/shard_output.hpp); the command's library call only
// keeps its block of records (shard/shard_selection.hpp). docs/cluster.md describes the whole.

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/shard/shard_manifest.hpp"
#include "claimrag/shard/shard_output.hpp"
#include "judge_flags.hpp"
#include "options.hpp"

namespace claimrag::cli {

/// Adds --shard, checked when parsed (`4/4`, `0/0`, `x`: exit 2 before any work).
inline CLI::Option* add_shard_option(CLI::App& command, std::string& text) {
  return command
      .add_option("--shard", text,
                  "Process only shard K of N (K/N, 0 <= K < N: contiguous blocks of the inputs in input order), or slurm "
                  "(K and N from the Slurm job array); writes OUT.shard.json beside --out for `claimrag merge`")
      ->check(CLI::Validator([](std::string& value) { return shard::shard_text_problem(value); }, "K/N|slurm"));
}

/// The command's arguments that decide its outputs, as a manifest records them: every option
/// given, in the order the command lists them, but --shard, --out (each shard's own) and
/// --threads (outputs do not depend on it).
inline std::vector<std::string> output_arguments(const CLI::App& command) {
  std::vector<std::string> arguments;
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || name == "--shard" || name == "--out" || name == "--threads") continue;
    std::string argument = name;
    for (const auto& value : option->results()) argument += " " + value;
    arguments.push_back(argument);
  }
  return arguments;
}

/// Refuses --shard with a served --verifier: its recording and its count of failed pairs (checked
/// against --max-failures) are the whole run's, which no shard sees.
inline void refuse_served_shard(const std::string& verifier) {
  if (is_served_verifier(verifier)) {
    throw UsageError("--shard does not apply with a served --verifier (llm:URL, tei:URL): its recording and failure count span the whole run");
  }
}

/// The verifier's identity in a shard's manifest: verifier_record, and for the built-in verifier
/// trained here (no --model: the free-text one, trained or read from the cache) the XXH64 of the
/// SciFact files it is trained on, so that shards trained on different copies are not merged.
inline nlohmann::ordered_json shard_verifier_identity(experiment::VerifierSource source, const std::filesystem::path& model,
                                                      const std::filesystem::path& original,
                                                      const experiment::ExperimentConfig& config) {
  source.model = model;
  source.original = original;
  auto identity = experiment::verifier_record(source, config);
  const bool builtin = source.spec.empty() || experiment::parse_verifier_spec(source.spec).kind == "builtin";
  if (builtin && model.empty()) {
    const std::filesystem::path folder = original.empty() ? std::filesystem::path(config.data.original) : original;
    // Files that are missing are left to the command, whose message says how to get SciFact.
    std::vector<std::filesystem::path> files;
    for (const auto* name : {"claims_train.jsonl", "corpus.jsonl"}) {
      if (std::filesystem::is_regular_file(folder / name)) files.push_back(folder / name);
    }
    identity["trained_on"] = shard::input_identities(files);
  }
  return identity;
}

/// The configuration of a sharded run (`shard_text` given), read before any work as its manifest
/// records it; none for an unsharded one, which reads it once its outputs are checked.
inline std::optional<experiment::ExperimentConfig> shard_config(const std::string& shard_text, const std::string& config_file,
                                                                const CheckpointReading& reading) {
  if (shard_text.empty()) return std::nullopt;
  (void)shard::parse_shard(shard_text);  // `--shard slurm` outside an array is refused before anything is read
  return config_from(config_file, reading);
}

/// A command that may run as a shard: its --shard text and what its manifest records.
struct ShardedCommand {
  std::string text;  ///< --shard; empty: not sharded
  shard::ShardRun run;
};

/// The ShardedCommand of `command` (its name and mode as `label`), writing `out` and `sidecars`,
/// under the configuration whose file checksum is `config_checksum`. Refuses --shard without --out.
inline ShardedCommand sharded_command(const CLI::App& command, const std::string& label, const std::string& text,
                                      const std::filesystem::path& out, std::vector<shard::Sidecar> sidecars,
                                      const std::string& config_checksum, nlohmann::ordered_json verifier = nullptr) {
  if (!text.empty() && out.empty()) throw UsageError("--shard writes the shard's records to --out: give --out FILE");
  // A device or a pipe cannot be read back for the manifest's checksum, nor merged.
  if (!text.empty() && (std::filesystem::is_character_file(out) || std::filesystem::is_fifo(out))) {
    throw UsageError("--shard writes a file that merge reads back: --out " + out.string() + " is a device or a pipe");
  }
  return {text,
          {label, {}, shard::configuration_identity(config_checksum, output_arguments(command)), std::move(verifier), out,
           std::move(sidecars)}};
}

/// with_outputs for a command that may run as a shard: `work` gets the shard's selection (nullptr
/// when not sharded), and a shard's manifest joins its outputs' set. The manifest lists the
/// declaration's inputs.
template <class Work>
void with_shard_outputs(ShardedCommand sharded, io::OutputDeclaration declaration, Work&& work) {
  if (sharded.text.empty()) {
    with_outputs(declaration, [&] { work(nullptr); });
    return;
  }
  shard::ShardSelection selection;
  selection.spec = shard::parse_shard(sharded.text);
  sharded.run.inputs = declaration.inputs;
  declaration.files.push_back(shard::manifest_path(sharded.run.out));
  io::OutputPlan plan(declaration);
  work(&selection);
  shard::write_shard_manifest(plan, sharded.run, selection);
  plan.commit();
}

}  // namespace claimrag::cli
