#include <spdlog/spdlog.h>

#include "claimrag/experiment/evidence/evidence_stage.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "shard_flags.hpp"

namespace claimrag::cli {

void add_extract_evidence_command(CLI::App& root) {
  struct Options {
    experiment::ExtractEvidenceRequest request;
    std::string data, run, out, model, save_model, original, config;
    std::string shard;  ///< --shard
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "extract-evidence", "Pick the two sentences of the top documents that best back each claim");
  add_data_option(*command, options->data);
  command->add_option("--run", options->run, "TREC run whose top documents give the candidate sentences")->required();
  command->add_option("--out", options->out, "JSON Lines to write (one claim a line); meta beside it")->required();
  command->add_option("--split", options->request.split, "Split whose judged claims get evidence (default: test)");
  command->add_option("--model", options->model, "Saved verifier to use instead of training one");
  command->add_option("--save-model", options->save_model, "Where to save the trained verifier");
  command->add_option("--rationales", options->request.rationales, "Training positives (default: the config's)")
      ->check(CLI::IsMember({"gold", "pseudo"}));
  command->add_option("--original", options->original, "SciFact release layout for gold rationales (default: the config's)");
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_shard_option(*command, options->shard);
  command->callback([options, command] {
    auto request = options->request;
    request.data = options->data;
    request.run = options->run;
    request.out = options->out;
    request.model = options->model;
    request.save_model = options->save_model;
    request.original = options->original;
    request.log_progress = spdlog::default_logger()->should_log(spdlog::level::info);  // off under --quiet
    std::filesystem::path meta = request.out;  // the selections' meta file is written beside them
    meta.replace_extension(".meta.json");
    if (!options->shard.empty() && !options->save_model.empty()) {
      throw UsageError("--shard does not apply with --save-model: save the verifier once, then give it to every shard as --model");
    }
    // The meta file's claim counts are the shard's: merge sums them.
    const auto sharded_config = shard_config(options->shard, options->config, {});
    const auto sharded = sharded_command(*command, "extract-evidence", options->shard, options->out,
                                         {{meta, "evidence record", {"claims", "claims_without_selection"}}},
                                         sharded_config ? sharded_config->checksum : std::string());
    with_shard_outputs(sharded,
                       {.inputs = {options->data, options->run, options->model, options->original, options->config},
                        .files = {options->out, meta, options->save_model}},
                       [&](shard::ShardSelection* selection) {
                         request.shard = selection;
                         experiment::run_extract_evidence(request, sharded_config ? *sharded_config : config_from(options->config));
                       });
  });
}

}  // namespace claimrag::cli
