#pragma once
// Options shared by several subcommands, so that one flag means one thing everywhere.

#include <omp.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/verification/verifier_spec.hpp"

namespace claimrag::cli {

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
      ->check(CLI::NonNegativeNumber);
}

/// --threads N on every subcommand that computes in parallel: the OpenMP threads to use (default:
/// OMP_NUM_THREADS, else every core). Outputs are byte-identical for any N, so the flag changes
/// only the wall time. Applied when parsed, before the subcommand runs.
inline CLI::Option* add_threads_option(CLI::App& command) {
  return command
      .add_option_function<int>(
          "--threads", [](const int& threads) { omp_set_num_threads(threads); },
          "Threads to compute with (default: OMP_NUM_THREADS, else all cores); results do not depend on it")
      ->check(CLI::Range(1, 1024));
}

/// --verifier SPEC on every subcommand that verifies: builtin, checkpoint:DIR, llm:URL or tei:URL
/// (verification/verifier_spec.hpp). Checked when parsed, so a bad SPEC stops before any work.
inline CLI::Option* add_verifier_option(CLI::App& command, std::string& spec) {
  return command
      .add_option("--verifier", spec,
                  "Verifier: builtin (default), checkpoint:DIR (Hugging Face NLI model on disk), llm:URL, tei:URL")
      ->check([](const std::string& text) {
        try {
          (void)verification::parse_verifier_spec(text);
          return std::string();
        } catch (const std::exception& error) {
          return std::string(error.what());
        }
      });
}

/// The configuration named by --config, or the default one.
inline experiment::ExperimentConfig config_from(const std::string& path) {
  return path.empty() ? experiment::default_config() : experiment::load_config(path);
}

}  // namespace claimrag::cli
