#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/reproduce.hpp"
#include "claimrag/io/table.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_reproduce_command(CLI::App& root) {
  struct Options {
    std::string config;
    std::string out;
    bool force = false;
    std::string freeze;
    double freeze_tolerance = 0;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "reproduce", "Reproduce the four papers' tables on SciFact (or any BEIR dataset) and check every number against its frozen value");
  command->add_option("--config", options->config, "Experiment configuration")->required();
  command->add_option("--out", options->out, "Output folder")->required();
  command->add_flag("--force", options->force, "Replace a reproduction already in --out");
  add_freeze_options(*command, options->freeze, options->freeze_tolerance);
  add_threads_option(*command);
  command->callback([options] {
    const auto started = std::chrono::steady_clock::now();
    io::OutputPlan plan({.inputs = {options->config}, .files = {options->freeze}, .folders = {options->out}});
    const auto config = experiment::load_config(options->config);
    const auto reproduction = experiment::reproduce(config, {options->out, options->force, options->freeze, options->freeze_tolerance});
    plan.commit();
    spdlog::info("reproduction -> {} (REPORT.md, tables/, runs/, models/)", options->out);
    // Verdict lines, then one summary line, on stdout; progress went to stderr.
    for (const auto& line : reproduction.check.lines) std::cout << line.message << '\n';
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
    const std::size_t failures = reproduction.check.failures();
    std::cout << (reproduction.check.lines.size() - failures) << " OK, " << failures << " FAIL, "
              << io::fixed(seconds.count(), 1) << " s" << std::endl;
    if (reproduction.check.failures() > 0) {
      throw CheckFailedError(std::to_string(reproduction.check.failures()) + " metric(s) deviate from " + config.expected);
    }
  });
}

}  // namespace claimrag::cli
