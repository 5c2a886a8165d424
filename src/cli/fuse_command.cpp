#include <spdlog/spdlog.h>

#include "claimrag/experiment/retrieval/fusion_stage.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_fuse_command(CLI::App& root) {
  struct Options {
    std::vector<std::string> runs;
    std::string out;
    double rrf_k = -1;
    std::size_t depth = 0;
    std::string tag = "hybrid";
    std::string config;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "fuse", "Merge two or more rankings into one by reciprocal rank fusion");
  command->add_option("--runs", options->runs, "TREC run files to fuse (at least two)")->required();
  command->add_option("--out", options->out, "Fused TREC run file to write")->required();
  command->add_option("--rrf-k", options->rrf_k, "RRF constant k (default: the config's, 60)")
      ->check(number_in(0, 1e6));
  command->add_option("--depth", options->depth, "Documents read from each run and written (default: the config's, 200)")
      ->check(number_in(1, 1e6));
  command->add_option("--tag", options->tag, "Tag of the fused run")->capture_default_str();
  add_config_option(*command, options->config);
  command->callback([options] {
    const auto config = config_from(options->config);
    const fusion::RrfOptions rrf{options->rrf_k >= 0 ? options->rrf_k : config.fusion.rrf_k,
                                 options->depth > 0 ? options->depth : config.fusion.depth, options->tag};
    const std::vector<std::filesystem::path> files(options->runs.begin(), options->runs.end());
    std::vector<std::filesystem::path> inputs = files;
    inputs.emplace_back(options->config);
    run::Run fused;
    with_outputs({.inputs = inputs, .files = {options->out}}, [&] {
      fused = experiment::fuse_run_files(files, rrf);
      run::write_trec_run(fused, options->out);
    });
    spdlog::info("fused {} runs (k = {}, depth {}): {} queries -> {}", files.size(), rrf.k, rrf.depth,
                 fused.rankings.size(), options->out);
  });
}

}  // namespace claimrag::cli
