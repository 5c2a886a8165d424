#pragma once
// Options shared by several subcommands, so that one flag means one thing everywhere.

#include <omp.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/experiment/config.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/output_plan.hpp"
#include "claimrag/pretrained/precision.hpp"
#include "claimrag/verification/checker_verifier.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"

namespace claimrag::cli {

/// The check of a numeric option: a finite number in [low, high]. CLI11 reads "-1" into an unsigned
/// option as its largest value and lets "nan" through CLI::Range, so every numeric option takes
/// this check on the text as typed. A number a double cannot hold (1e400, 1e-400) is reported as
/// out of range, as the files' numbers are (io::number_problem). With low_excluded the range is
/// (low, high].
inline CLI::Validator number_in(double low, double high, bool low_excluded = false) {
  const auto bounds = (low_excluded ? "(" : "[") + CLI::detail::to_string(low) + ", " + CLI::detail::to_string(high) + "]";
  return CLI::Validator(
      [low, high, low_excluded, bounds](std::string& text) {
        double value = 0;
        const std::string problem = io::number_problem(text, value);
        if (problem == "is out of range") return "'" + text + "' is out of range: must be a number in " + bounds;
        if (!problem.empty() || value < low || (low_excluded && value == low) || value > high) return "must be a number in " + bounds + ", got '" + text + "'";
        return std::string();
      },
      "in " + bounds);
}

inline CLI::Option* add_data_option(CLI::App& command, std::string& data) {
  return command.add_option("--data", data, "BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/)")
      ->required();
}

inline CLI::Option* add_config_option(CLI::App& command, std::string& config) {
  return command.add_option("--config", config,
                            "Experiment configuration (default: configs/scifact.json if present)");
}

inline CLI::Option* add_method_option(CLI::App& command, std::string& method) {
  return command.add_option("--method", method, "Retrieval method")
      ->required()
      ->check(CLI::IsMember({"bm25", "dense"}));
}

/// --freeze FILE and --freeze-tolerance T: write the computed metrics as an expectations file.
inline void add_freeze_options(CLI::App& command, std::string& freeze, double& tolerance) {
  command.add_option("--freeze", freeze, "Write the computed metrics to FILE as expectations that --check reads");
  command.add_option("--freeze-tolerance", tolerance, "The tolerance of every frozen metric (default 0: exact)")
      ->check(number_in(0, 1e6));
}

/// The most OpenMP threads claimrag uses, from --threads or OMP_NUM_THREADS.
inline constexpr int kMaxThreads = 1024;

/// Lowers a thread count OMP_NUM_THREADS set above kMaxThreads to it, as --threads is capped:
/// libgomp crashes creating 100000 threads. Called by main before any parallel work.
inline void cap_threads_from_environment() {
  if (std::getenv("OMP_NUM_THREADS") == nullptr || omp_get_max_threads() <= kMaxThreads) return;
  spdlog::warn("OMP_NUM_THREADS={} is more than {} threads: using {}", std::getenv("OMP_NUM_THREADS"), kMaxThreads,
               kMaxThreads);
  omp_set_num_threads(kMaxThreads);
}

/// --threads N on every subcommand that computes in parallel: the OpenMP threads to use (default:
/// OMP_NUM_THREADS, else every core). Outputs are byte-identical for any N, so the flag changes
/// only the wall time. Applied when parsed, before the subcommand runs.
inline CLI::Option* add_threads_option(CLI::App& command) {
  return command
      .add_option_function<int>(
          "--threads", [](const int& threads) { omp_set_num_threads(threads); },
          "Threads to compute with (default: OMP_NUM_THREADS, else all cores); results do not depend on it")
      ->check(CLI::Range(1, kMaxThreads));
}

/// --precision f32|int8 on every subcommand that can load a checkpoint: the precision of its
/// encoders' linear layers (pretrained/precision.hpp). f32 is the default and matches the reference
/// library; int8 is faster and smaller, and changes the outputs slightly. Applied when parsed.
inline CLI::Option* add_precision_option(CLI::App& command) {
  return command
      .add_option_function<std::string>(
          "--precision",
          [](const std::string& text) { pretrained::set_default_checkpoint_precision(pretrained::parse_precision(text)); },
          "Checkpoints' linear layers: f32 (default: the reference's results) or int8 (faster, approximate)")
      ->check(CLI::IsMember({"f32", "int8"}));
}

/// --verifier SPEC on every subcommand that verifies: builtin, checkpoint:DIR, llm:URL or tei:URL
/// (experiment/verification/verifier_backend.hpp). Checked when parsed, so a bad SPEC stops before any work.
inline CLI::Option* add_verifier_option(CLI::App& command, std::string& spec) {
  return command
      .add_option("--verifier", spec,
                  "Verifier: builtin (default), checkpoint:DIR (Hugging Face NLI model on disk), llm:URL, tei:URL")
      ->check([](const std::string& text) {
        try {
          (void)experiment::parse_verifier_spec(text);
          return std::string();
        } catch (const std::exception& error) {
          return std::string(error.what());
        }
      });
}

/// Runs a subcommand's work under an io::OutputPlan of what it reads and writes: the outputs are
/// checked before any work (none may be an input or another output, each must be writable) and
/// replaced together when the work succeeds, or when it ends in a failed --check (the outputs are
/// complete; the check judged them). On any other error no output is touched.
template <class Work>
void with_outputs(const io::OutputDeclaration& declaration, Work&& work) {
  io::OutputPlan plan(declaration);
  try {
    work();
  } catch (const CheckFailedError&) {
    plan.commit();
    throw;
  }
  plan.commit();
}

/// Refuses an option given an empty value (`--out ''`) in the subcommand being run, before it does
/// any work: an empty path names no file, and an empty name no strategy or tag. Called by main
/// once the command line is parsed.
inline void refuse_empty_values(const CLI::App& root) {
  for (const CLI::App* command : root.get_subcommands()) {
    for (const CLI::Option* option : command->get_options()) {
      if (option->count() == 0 || option->get_expected_min() == 0) continue;  // not given, or a flag
      for (const auto& value : option->results()) {
        if (value.empty()) throw CLI::ValidationError(option->get_name(), "an empty value is not allowed");
      }
    }
  }
}

/// The configuration named by --config, or the default one.
inline experiment::ExperimentConfig config_from(const std::string& path) {
  return path.empty() ? experiment::default_config() : experiment::load_config(path);
}

/// How a checkpoint verifier reads its labels and its pairs, on every subcommand that verifies:
/// --labels NAMES (what its labels mean, in id order; verification/checkpoint_verifier.hpp),
/// --checker KIND and --chunk-size N (verification/checker_verifier.hpp).
struct CheckpointReading {
  std::vector<std::string> labels;
  std::string checker;         ///< empty: the configuration's verification.checkpoint.checker
  std::size_t chunk_size = 0;  ///< 0: the configuration's, else the family's
};

inline void add_checkpoint_reading_options(CLI::App& command, CheckpointReading& reading) {
  command
      .add_option("--labels", reading.labels,
                  "With --verifier checkpoint:DIR: its labels in id order, e.g. unsupported,supported for a MiniCheck "
                  "checker (default: the configuration's verification.checkpoint.labels, else config.json's names)")
      ->delimiter(',');
  command.add_option("--checker", reading.checker,
                     "With --verifier checkpoint:DIR: how it reads a pair: nli (premise and claim, the default), "
                     "minicheck (document chunks + EOS + claim, the largest P(supported)) or alignscore (minicheck's "
                     "chunks, the mean over the claim's sentences)");
  command.add_option("--chunk-size", reading.chunk_size,
                     "With --checker minicheck|alignscore: a chunk's size in tokens (words for Flan-T5); default: "
                     "the family's (400 tokens, 500 words)")
      ->check(CLI::PositiveNumber);
}

/// Refuses --labels, --checker and --chunk-size (UsageError) unless `spec` names a checkpoint, and
/// names that are no label set or no checker claimrag knows: before any work.
inline void check_checkpoint_reading(const CheckpointReading& reading, const std::string& spec) {
  const bool given = !reading.labels.empty() || !reading.checker.empty() || reading.chunk_size != 0;
  if (!given) return;
  if (spec.empty() || experiment::parse_verifier_spec(spec).kind != "checkpoint") {
    throw UsageError("--labels, --checker and --chunk-size say how a checkpoint reads its pairs: give them with "
                     "--verifier checkpoint:DIR");
  }
  if (!reading.labels.empty()) (void)verification::map_declared_labels(reading.labels);
  if (!reading.checker.empty()) (void)verification::parse_checker_kind(reading.checker);
}

/// config_from(path) with the flags given as its verification.checkpoint settings; --chunk-size
/// without a checker that chunks is refused.
inline experiment::ExperimentConfig config_from(const std::string& path, const CheckpointReading& reading) {
  auto config = config_from(path);
  auto& checkpoint = config.verification.checkpoint;
  if (!reading.labels.empty()) checkpoint.labels = reading.labels;
  if (!reading.checker.empty()) checkpoint.checker = reading.checker;
  if (reading.chunk_size != 0) checkpoint.chunk_size = reading.chunk_size;
  if (checkpoint.chunk_size != 0 && checkpoint.checker == "nli") {
    throw UsageError("--chunk-size (verification.checkpoint.chunk_size) sizes the chunks of --checker minicheck or "
                     "alignscore; the nli rule reads sentences");
  }
  return config;
}

}  // namespace claimrag::cli
