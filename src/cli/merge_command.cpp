#include <spdlog/spdlog.h>

#include "claimrag/shard/merge.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_merge_command(CLI::App& root) {
  struct Options {
    std::filesystem::path out;
    std::vector<std::filesystem::path> shards;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "merge", "Join the outputs of the shards of one --shard run into exactly the output of the unsharded command");
  command->add_option("--out", options->out, "The merged output (its sidecars are named after it, as the command names them)")
      ->required();
  command->add_option("shards", options->shards, "The shards' outputs (each with OUT.shard.json beside it), in any order")
      ->required();
  command->callback([options] {
    // --out is checked, and what a killed merge left beside it cleared, before any shard is read:
    // the sidecars' names are known only from the manifests, and are declared below.
    { const io::OutputPlan early({.inputs = options->shards, .files = {options->out}}); }
    const auto plan = shard::plan_merge(options->out, options->shards);
    std::vector<std::filesystem::path> files;
    for (const auto& file : plan.files) files.push_back(file.target);
    with_outputs({.inputs = plan.inputs, .files = files}, [&] { shard::write_merge(plan); });
    spdlog::info("merge: {} shards of `{}`, {} records -> {}", plan.shards, plan.command, plan.records, options->out.string());
  });
}

}  // namespace claimrag::cli
