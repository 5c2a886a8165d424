// The claimrag executable: builds the command line, sets up logging to stderr, runs the chosen
// subcommand and turns library exceptions into the documented exit codes.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/shown_text.hpp"
#include "claimrag/kernels/vector_unit.hpp"
#include "claimrag/pretrained/model_clock.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "thread_waiting.hpp"

namespace {

/// The groups of `claimrag --help`, in order, and the subcommands each lists. A name whose
/// subcommand is not registered is skipped, so a new subcommand named here ("predict", which runs
/// a pretrained checkpoint) joins its group with its one registration line above; one named
/// nowhere is listed under CLI11's default "Subcommands".
void group_subcommands(CLI::App& root) {
  const std::pair<const char*, std::vector<const char*>> groups[] = {
      {"Reproduce the papers", {"reproduce"}},
      {"Your own claims", {"verify", "predict", "ground", "sufficiency", "interrogate", "calibrate"}},
      {"Building blocks", {"stats", "index", "retrieve", "fuse", "rerank", "extract-evidence", "gate"}},
      {"Analysis", {"evaluate", "compare-abstention", "sufficiency-bench"}},
      {"Clusters", {"merge"}},
  };
  for (const auto& [group, names] : groups) {
    for (const char* name : names) {
      for (auto* command : root.get_subcommands({})) {
        if (command->get_name() == name) command->group(group);
      }
    }
  }
}

/// `--verbose`'s last line after a command that loaded a checkpoint: where its time went, so that
/// the share the model runs can be measured on any command.
void log_model_times(std::chrono::steady_clock::time_point started) {
  const auto times = claimrag::pretrained::model_times();
  if (times.loading == 0.0 && times.running == 0.0) return;
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  spdlog::debug("time with pretrained models: loading {:.3f} s, tokenizing {:.3f} s, running {:.3f} s, of {:.3f} s in all",
                times.loading, times.tokenizing, times.running, total);
}

}  // namespace

int main(int argc, char** argv) {
  using claimrag::ExitCode;
  claimrag::cli::restart_with_short_spin_waits(argv);
  const auto started = std::chrono::steady_clock::now();
  // Results on stdout go out a line at a time, so that they never interleave mid-line with the
  // log lines on stderr when both go to one file.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  // Every log line's control characters escaped (io/shown_text.hpp): an error is one line, and a
  // server's reply or a file's text shown in a message can neither forge a line nor drive the terminal.
  auto logger = std::make_shared<spdlog::logger>(
      "claimrag", claimrag::io::escaping_sink(std::make_shared<spdlog::sinks::stderr_color_sink_st>()));
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("[%H:%M:%S] %^%l%$ %v");
  claimrag::cli::cap_threads_from_environment();

  CLI::App root{"claimrag: check scientific claims against abstracts, and reproduce four published systems that do it.\n"
                "Start with `claimrag verify --help`, or see README.md."};
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
    spdlog::debug("idle threads: {}", claimrag::cli::spin_wait_setting());
    claimrag::cli::refuse_empty_values(root);
    // A CLAIMRAG_VECTOR_UNIT this CPU cannot honour is refused before any work, whatever the
    // subcommand, rather than at its first product.
    spdlog::debug("vector unit: {}", claimrag::kernels::vector_unit_name(claimrag::kernels::best_vector_unit()));
  });


  // Registered in the order `claimrag --help` lists them; the group of each is set below.
  claimrag::cli::add_reproduce_command(root);
  claimrag::cli::add_verify_command(root);
  claimrag::cli::add_predict_command(root);
  claimrag::cli::add_ground_command(root);
  claimrag::cli::add_sufficiency_command(root);
  claimrag::cli::add_interrogate_command(root);
  claimrag::cli::add_calibrate_command(root);
  claimrag::cli::add_stats_command(root);
  claimrag::cli::add_index_command(root);
  claimrag::cli::add_bm25_statistics_command(root);
  claimrag::cli::add_retrieve_command(root);
  claimrag::cli::add_fuse_command(root);
  claimrag::cli::add_rerank_command(root);
  claimrag::cli::add_extract_evidence_command(root);
  claimrag::cli::add_gate_command(root);
  claimrag::cli::add_evaluate_command(root);
  claimrag::cli::add_compare_abstention_command(root);
  claimrag::cli::add_sufficiency_bench_command(root);
  claimrag::cli::add_merge_command(root);
  group_subcommands(root);

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
  log_model_times(started);
  return 0;
}
