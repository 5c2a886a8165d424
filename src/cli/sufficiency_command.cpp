#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/sufficiency/command.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"
#include "served_flags.hpp"
#include "shard_flags.hpp"
#include "shipped_defaults.hpp"

namespace claimrag::cli {
namespace {

/// The command's flags: examples from a file, or claims and their top k documents from a run.
struct SufficiencyFlags {
  sufficiency::SufficiencyCommand command;
  std::string verifier;  ///< --verifier SPEC
  CheckpointReading reading;  ///< --labels, --checker, --chunk-size
  experiment::VerifyRequest run;  ///< --data, --run, --split | --queries, --k, --original
  std::string config;
  JudgeFlags judge;                   ///< the served flags, the LLM verifier's --prompt, --max-failures
  experiment::VerifierSource source;  ///< the verifier with its served options, set before the outputs are declared
  std::string judge_spec;             ///< --judge llm:URL
  served::ServedOptions judge_served; ///< the judge's endpoint rules and recording, set before the outputs are declared
  std::optional<experiment::ExperimentConfig> shard_config;  ///< a shard's configuration, read before its outputs are declared
};

/// --judge llm:URL: the judge's transport, recorded beside --out by default.
void set_judge(SufficiencyFlags& flags) {
  const auto spec = experiment::parse_verifier_spec(flags.judge_spec);
  if (spec.kind != "llm") throw UsageError("sufficiency: --judge takes llm:URL (an OpenAI-compatible chat endpoint)");
  if (!flags.judge.prompt.empty()) throw UsageError("sufficiency: --prompt is the LLM verifier's; the judge's prompt is --judge-prompt");
  served::ServedOptions options = flags.judge_served;
  options.endpoint.url = spec.location;
  flags.command.judge.model = flags.judge.served.llm_model;
  flags.command.judge.open_transport = [options] { return served::open_transport(options); };
}

void run_command(SufficiencyFlags flags) {
  if (!flags.judge_spec.empty()) {
    if (!flags.command.model.empty() || !flags.verifier.empty() || !flags.command.scores.empty()) {
      throw UsageError("sufficiency: --judge decides by itself; give no --model, --verifier or --scores");
    }
    set_judge(flags);
  } else if (flags.command.scores.empty()) {
    experiment::VerifierSource source = flags.source;
    source.model = flags.command.model;
    const std::string config_file = flags.config;
    const auto reading = flags.reading;
    flags.command.open_verifier = [source, config_file, reading, loaded = flags.shard_config] {
      return experiment::open_verifier(source, loaded ? *loaded : config_from(config_file, reading));
    };
  } else if (!flags.command.model.empty() || !flags.verifier.empty()) {
    throw UsageError("sufficiency: give --scores, or a verifier (--model, --verifier), not both");
  }
  const bool from_run = !flags.run.run.empty();
  if (from_run == !flags.command.examples.empty()) throw UsageError("sufficiency: give exactly one of --examples and --run");
  if (!from_run) {
    sufficiency::run_sufficiency(flags.command);
    return;
  }
  if (flags.run.data.empty()) throw UsageError("sufficiency: --run needs --data (the BEIR folder of the run's documents)");
  if (!flags.command.scores.empty()) throw UsageError("sufficiency: --scores applies to --examples, not to --run");
  const auto config = flags.shard_config ? *flags.shard_config : config_from(flags.config);
  experiment::VerifyRequest request = flags.run;
  request.out = flags.command.out;  // verify's run mode checks it; nothing is written here
  const auto inputs = experiment::verify_inputs(request, config);
  sufficiency::run_sufficiency(flags.command, sufficiency::examples_from_inputs(inputs));
}

/// What `sufficiency --shard` records (`config` is given when sharded), and its refusals: a shard
/// decides its examples with a verifier on this machine, and writes no --evaluation (its numbers
/// are over every example; compute them on the merged decisions with evaluate's rules instead).
/// --scores is refused too: it holds every example's scores, and a shard would refuse the others'.
ShardedCommand sufficiency_shard(const CLI::App& command, const std::string& text, const SufficiencyFlags& flags,
                                 const experiment::ExperimentConfig* config) {
  const auto& options = flags.command;
  if (config == nullptr) return sharded_command(command, "sufficiency", text, options.out, {}, {});
  if (!options.evaluation.empty()) throw UsageError("--shard does not apply with --evaluation: its numbers are over every example");
  if (!flags.judge_spec.empty()) throw UsageError("--shard does not apply with --judge (a served model): its recording spans the whole run");
  if (!options.scores.empty()) throw UsageError("--shard does not apply with --scores: decide precomputed scores in one run");
  refuse_served_shard(flags.verifier);
  return sharded_command(command, "sufficiency", text, options.out,
                         {{experiment::verifier_meta_output(flags.verifier, options.out), "verifier record"}}, config->checksum,
                         shard_verifier_identity(flags.source, options.model, flags.run.original, *config));
}

}  // namespace

void add_sufficiency_command(CLI::App& root) {
  auto flags = std::make_shared<SufficiencyFlags>();
  auto& options = flags->command;
  auto* command = root.add_subcommand(
      "sufficiency", "Decide whether a set of passages supports, refutes or is insufficient for a claim, and answer or abstain");
  command->add_option("--examples", options.examples, "JSON Lines {\"id\", \"claim\", \"evidence\": [passage, ...]}");
  command->add_option("--data", flags->run.data, "With --run: the BEIR folder of the run's documents");
  command->add_option("--run", flags->run.run, "Instead of --examples: a TREC run, each claim's top --k documents as passages");
  command->add_option("--split", flags->run.claims.split, "With --run: the claims of this qrels split");
  command->add_option("--queries", flags->run.claims.queries_file, "With --run: the claims of this queries.jsonl");
  command->add_option("--k", flags->run.k, "With --run: documents per claim (default: the configuration's verification.verify_k)")
      ->check(number_in(1, 1000));
  command->add_option("--original", flags->run.original, "With --run: SciFact's release layout, for its sentences");
  command->add_option("--model", options.model,
                      "The pair verifier (a file of claimrag verify --save-model); default: the built-in free-text verifier");
  add_verifier_option(*command, flags->verifier);
  add_checkpoint_reading_options(*command, flags->reading);
  command->add_option("--scores", options.scores, "Pair scores instead of a verifier: JSON Lines {\"id\", \"pairs\": [[s, r, n], ...]}");
  command->add_option("--aggregator", options.aggregator, "SURE's aggregator: models/sufficiency_aggregator_free_text.json of a reproduction for the built-in verifier, sufficiency_aggregator.json for its oracle verifier (required unless --judge)");
  command->add_option("--judge", flags->judge_spec, "Instead of SURE: a served chat model judges each example, llm:URL (with --llm-model)");
  auto* judge_prompt = command->add_option("--judge-prompt", options.judge.prompt,
                                           "With --judge: the prompt file, holding {claim} and {passages}");
  judge_prompt->capture_default_str();
  command->add_option("--evaluation", options.evaluation, "JSON: the decisions' macro-F1 and other numbers against the examples' gold labels");
  command->add_option("--out", options.out, "JSON Lines: label, probabilities, score, decision and features per example")->required();
  add_judge_flags(*command, flags->judge);
  add_config_option(*command, flags->config);
  add_threads_option(*command);
  add_precision_option(*command);
  auto shard_text = std::make_shared<std::string>();
  add_shard_option(*command, *shard_text);
  command->callback([flags, judge_prompt, shard_text, command] {
    auto& options = flags->command;
    default_to_shipped(*judge_prompt, options.judge.prompt);
    const bool judged = !flags->judge_spec.empty();
    auto& source = flags->source;
    source = {};
    source.spec = flags->verifier;
    source.record_beside = options.out;
    if (judged) {
      // The served flags are the judge's: the verifier (none with --judge) sees none of them.
      flags->judge_served = resolve_served(flags->judge.served, true, options.out);
      options.judge.max_failures = flags->judge.max_failures;
    } else {
      set_served_source(source, flags->judge, options.scores.empty() ? options.out : std::filesystem::path());
    }
    options.max_failures = flags->judge.max_failures;
    options.verifier_spec = flags->verifier;
    check_checkpoint_reading(flags->reading, flags->verifier);
    const auto& served = judged ? flags->judge_served : source.served;
    flags->shard_config = shard_config(*shard_text, flags->config, flags->reading);
    const auto sharded = sufficiency_shard(*command, *shard_text, *flags, flags->shard_config ? &*flags->shard_config : nullptr);
    with_shard_outputs(sharded, {.inputs = {options.examples, options.model, options.scores, options.aggregator, flags->run.data,
                             flags->run.run, flags->run.claims.queries_file, flags->run.original, flags->config,
                             verifier_input(source), judged ? options.judge.prompt : std::filesystem::path{}, served.replay},
                  .files = {options.out, experiment::verifier_meta_output(flags->verifier, options.out), options.evaluation,
                            served.record}},
                 [&](shard::ShardSelection* selection) {
                   flags->command.shard = selection;
                   run_command(*flags);
                 });
  });
}

void add_sufficiency_bench_command(CLI::App& root) {
  auto options = std::make_shared<sufficiency::SufficiencyBenchCommand>();
  auto config = std::make_shared<std::string>();
  auto* command = root.add_subcommand(
      "sufficiency-bench", "Build the evidence-sufficiency benchmark from SciFact's original release");
  command->add_option("--original", options->original, "SciFact's original layout (corpus.jsonl, claims_train/dev.jsonl)")->required();
  command->add_option("--out", options->out, "The benchmark, JSON Lines")->required();
  add_config_option(*command, *config);
  command->callback([options, config] {
    options->options = config_from(*config).sufficiency.benchmark;
    with_outputs({.inputs = {options->original, *config}, .files = {options->out}},
                 [&] { sufficiency::run_sufficiency_bench(*options); });
  });
}

}  // namespace claimrag::cli
