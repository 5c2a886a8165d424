#include <spdlog/spdlog.h>

#include <iostream>

#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"
#include "shard_flags.hpp"

namespace claimrag::cli {
namespace {

/// What `verify --shard` records (`config` is given when sharded), and its refusals: a shard verifies claims or pairs (not --claim),
/// saves no model (each shard would write one) and uses no served verifier (its recording and
/// counts of failures are the whole run's).
ShardedCommand verify_shard(const CLI::App& command, const std::string& text, const experiment::VerifyRequest& request,
                            const experiment::VerifierSource& source, const experiment::ExperimentConfig* config) {
  if (config != nullptr) {
    if (!request.claim.empty()) throw UsageError("--shard does not apply with --claim");
    if (!request.save_model.empty()) throw UsageError("--shard does not apply with --save-model: save the model once, then give it to every shard as --model");
    refuse_served_shard(request.verifier);
  }
  const auto mode = request.pairs.empty() ? "verify --run" : "verify --pairs";
  return sharded_command(command, mode, text, request.out,
                         {{experiment::verifier_meta_output(request.verifier, request.out), "verifier record"}},
                         config == nullptr ? std::string() : config->checksum,
                         config == nullptr ? nlohmann::ordered_json() : shard_verifier_identity(source, request.model, request.original, *config));
}

}  // namespace

void add_verify_command(CLI::App& root) {
  struct Options {
    experiment::VerifyRequest request;
    std::string data, split, queries, run, original, pairs, index, out, model, save_model, config;
    CheckpointReading reading;  ///< --labels, --checker, --chunk-size
    JudgeFlags judge;
    std::string shard;  ///< --shard
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "verify", "Say whether abstracts SUPPORT or CONTRADICT a claim (else NOT_ENOUGH_INFO): one claim, a file of pairs, or a run's claims");
  add_data_option(*command, options->data)->required(false);
  auto* split = command->add_option("--split", options->split, "Verify the judged claims of this split (qrels/NAME.tsv)");
  auto* queries = command->add_option("--queries", options->queries, "Verify the claims of this BEIR-style queries.jsonl");
  split->excludes(queries);
  command->add_option("--run", options->run, "TREC run giving each claim's documents (writes predictions to --out)");
  command->add_option("--pairs", options->pairs, "JSON Lines of {\"id\", \"claim\", \"evidence\"} (writes one verdict a line to --out)");
  command->add_option("--claim", options->request.claim, "One claim: retrieve with BM25, verify, print the verdict");
  command->add_option("--index", options->index, "--claim: folder with bm25.index (default: index the corpus in memory)");
  command->add_option("--k", options->request.k, "Documents per claim (default: the config's)")->check(number_in(1, 1000));
  command->add_option("--original", options->original, "SciFact release layout: sentences with SciFact's indices");
  command->add_option("--out", options->out, "File to write (--run: predictions JSONL; --pairs: verdicts JSONL)");
  command->add_flag("--json", options->request.json, "--claim: print one JSON object instead of text");
  command->add_option("--model", options->model,
                      "Saved verifier to use instead of the built-in one (--pairs: not one of the open setting)");
  add_verifier_option(*command, options->request.verifier);
  add_checkpoint_reading_options(*command, options->reading);
  command->add_option("--save-model", options->save_model, "Where to save the trained verifier");
  add_judge_flags(*command, options->judge);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  add_shard_option(*command, options->shard);
  command->callback([options, command] {
    auto request = options->request;
    request.data = options->data;
    request.claims = {options->split, options->queries};
    request.run = options->run;
    request.pairs = options->pairs;
    request.index = options->index;
    request.original = options->original;
    request.out = options->out;
    request.model = options->model;
    request.save_model = options->save_model;
    request.log_progress = spdlog::default_logger()->should_log(spdlog::level::info);  // off under --quiet
    const auto source = apply_judge_flags(request, options->judge, options->out);
    check_checkpoint_reading(options->reading, request.verifier);
    const auto config = shard_config(options->shard, options->config, options->reading);
    const auto sharded = verify_shard(*command, options->shard, request, source, config ? &*config : nullptr);
    with_shard_outputs(sharded,
                       {.inputs = {options->data, options->queries, options->run, options->pairs, options->index, options->original,
                                   options->model, options->config, verifier_input(source), source.served.replay},
                        .files = {options->out, options->save_model,
                                  experiment::verifier_meta_output(options->request.verifier, options->out), source.served.record}},
                       [&](shard::ShardSelection* selection) {
                         request.shard = selection;
                         experiment::run_verify(request, config ? *config : config_from(options->config, options->reading), std::cout);
                       });
  });
}

}  // namespace claimrag::cli
