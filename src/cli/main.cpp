// The claimrag executable: builds the command line, sets up logging to stderr, runs the chosen
// subcommand and turns library exceptions into the documented exit codes.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <exception>

#include "claimrag/error.hpp"
#include "commands.hpp"
#include "options.hpp"

int main(int argc, char** argv) {
  using claimrag::ExitCode;
  auto logger = spdlog::stderr_color_st("claimrag");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$ %v");
  claimrag::cli::cap_threads_from_environment();

  CLI::App root{"claimrag: claim-aware scientific retrieval-augmented generation, reproduced"};
  root.set_version_flag("--version", std::string(CLAIMRAG_VERSION));
  root.require_subcommand(1);
  root.fallthrough();
  bool quiet = false;
  bool verbose = false;
  root.add_flag("--quiet", quiet, "Only warnings and errors on stderr (no progress)");
  root.add_flag("--verbose", verbose, "Debug output on stderr");
  root.parse_complete_callback([&] {
    spdlog::set_level(quiet ? spdlog::level::warn
                            : verbose ? spdlog::level::debug : spdlog::level::info);
    claimrag::cli::refuse_empty_values(root);
  });


  claimrag::cli::add_stats_command(root);
  claimrag::cli::add_index_command(root);
  claimrag::cli::add_retrieve_command(root);
  claimrag::cli::add_evaluate_command(root);
  claimrag::cli::add_gate_command(root);
  claimrag::cli::add_reproduce_command(root);
  claimrag::cli::add_fuse_command(root);
  claimrag::cli::add_rerank_command(root);
  claimrag::cli::add_extract_evidence_command(root);
  claimrag::cli::add_interrogate_command(root);
  claimrag::cli::add_verify_command(root);
  claimrag::cli::add_sufficiency_command(root);
  claimrag::cli::add_sufficiency_bench_command(root);
  claimrag::cli::add_ground_command(root);
  claimrag::cli::add_compare_abstention_command(root);

  try {
    root.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // CLI11 answers --help and --version with a "success" parse error.
    const int code = root.exit(error);
    return code == 0 ? 0 : static_cast<int>(ExitCode::usage);
  } catch (const claimrag::Error& error) {
    spdlog::error("{}", error.what());
    return static_cast<int>(error.exit_code());
  } catch (const std::exception& error) {
    spdlog::error("internal error: {}", error.what());
    return static_cast<int>(ExitCode::internal);
  }
  return 0;
}
