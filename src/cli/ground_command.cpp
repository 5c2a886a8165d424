#include "claimrag/experiment/shipped_files.hpp"
#include "claimrag/experiment/systems/ground_answers.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/error.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"
#include "served_flags.hpp"
#include "shard_flags.hpp"

namespace claimrag::cli {
namespace {

/// What `ground --shard` records (`config` is given when sharded), and its refusals: a shard grounds --answers with a verifier on
/// this machine (a served model's recording and counts of failures are the whole run's).
ShardedCommand ground_shard(const CLI::App& command, const std::string& text, const experiment::GroundRequest& request,
                            const experiment::VerifierSource& source, const experiment::ExperimentConfig* config) {
  if (config == nullptr) return sharded_command(command, "ground", text, request.out, {}, {});
  if (!request.questions.empty()) throw UsageError("--shard applies to --answers, not to --questions with --generate (a served model)");
  refuse_served_shard(request.verifier);
  return sharded_command(command, "ground", text, request.out,
                         {{experiment::verifier_meta_output(request.verifier, request.out), "verifier record"}}, config->checksum,
                         shard_verifier_identity(source, request.model, request.original, *config));
}

}  // namespace

void add_ground_command(CLI::App& root) {
  struct Options {
    experiment::GroundRequest request;
    std::string answers, out, data, original, run, model, config;
    CheckpointReading reading;  ///< --labels, --checker, --chunk-size
    double support_threshold = -1, conflict_threshold = -1, contradict_ratio = -1;
    JudgeFlags judge;  ///< the served flags (shared by --generate and a served --verifier), --prompt, --max-failures
    std::string questions, generate, prompt = "answer", prompt_file;
    std::string shard;  ///< --shard
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "ground", "Keep the sentences of an answer that its sources support and drop the rest (or answer \"I don't know\")");
  command->add_option("--answers", options->answers, "JSON Lines of {\"id\", \"answer\", \"context\"?}");
  command->add_option("--questions", options->questions,
                      "Instead of --answers: JSON Lines of {\"id\", \"question\", \"context\"?}, answered by --generate first");
  command->add_option("--generate", options->generate, "With --questions: the chat model that writes the answers, llm:URL (with --llm-model)");
  auto* generate_prompt = command->add_option("--generate-prompt", options->prompt,
                      "With --generate: answer (configs/prompts/grounding_answer.txt) or refusal (grounding_answer_refusal.txt: "
                      "answer only if the context supports it, else \"I don't know\")")
      ->capture_default_str()
      ->check(CLI::IsMember({"answer", "refusal"}));
  command->add_option("--generate-prompt-file", options->prompt_file,
                      "With --generate: another prompt file, holding {question} and {context} (instead of --generate-prompt)");
  command->add_option("--out", options->out, "JSON Lines to write, one grounded answer a line")->required();
  add_data_option(*command, options->data)->required(false);
  command->add_option("--original", options->original, "SciFact release layout: its abstracts' sentences");
  command->add_option("--run", options->run, "TREC run giving the context of answers without one (by answer id)");
  command->add_option("--k", options->request.k, "Documents taken from --run (default 10)")->check(number_in(1, 1000));
  command->add_option("--model", options->model,
                      "Saved verifier (verify --pairs --save-model, or the reproduction's models/verifier_oracle.safetensors); "
                      "default: the built-in free-text verifier, trained on SciFact once and cached");
  add_verifier_option(*command, options->request.verifier);
  add_checkpoint_reading_options(*command, options->reading);
  command->add_option("--support-threshold", options->support_threshold, "tau_s (default: the config's grounding.support_threshold)")
      ->check(number_in(0, 1));
  command->add_option("--conflict-threshold", options->conflict_threshold, "tau_c (default: the config's grounding.conflict_threshold)")
      ->check(number_in(0, 1));
  command->add_option("--contradict-ratio", options->contradict_ratio,
                      "gamma: a claim is kept only when P(CONTRADICT) < gamma x P(SUPPORT), and dropped as conflicting when "
                      "P(CONTRADICT) >= gamma x P(SUPPORT) and >= tau_c (default: the config's grounding.contradict_ratio)")
      ->check(number_in(0, 10, /*low_excluded=*/true));
  add_judge_flags(*command, options->judge);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  add_precision_option(*command);
  add_shard_option(*command, options->shard);
  command->callback([options, generate_prompt, command] {
    const bool command_gave_prompt = generate_prompt->count() > 0;
    auto request = options->request;
    request.answers = options->answers;
    request.out = options->out;
    request.data = options->data;
    request.original = options->original;
    request.run = options->run;
    request.model = options->model;
    if (options->support_threshold >= 0) request.support_threshold = options->support_threshold;
    if (options->conflict_threshold >= 0) request.conflict_threshold = options->conflict_threshold;
    if (options->contradict_ratio >= 0) request.contradict_ratio = options->contradict_ratio;
    const bool generates = !options->generate.empty();
    // --llm-model, --record and --replay may be the generator's alone: the verifier's own checks
    // see them only when it is served itself.
    JudgeFlags verifier_flags = options->judge;
    if (generates && !is_served_verifier(request.verifier)) {
      verifier_flags.served.llm_model.clear();
      verifier_flags.served.served.record.clear();
      verifier_flags.served.served.replay.clear();
    }
    const auto source = apply_judge_flags(request, verifier_flags, options->out);
    check_checkpoint_reading(options->reading, request.verifier);
    // The generator and a served verifier share the flags and the recording: one file holds the
    // exchanges of every endpoint the command reached (served/recording.hpp).
    const auto served = resolve_served(options->judge.served, generates || is_served_verifier(request.verifier), options->out);
    if (generates) {
      const auto spec = experiment::parse_verifier_spec(options->generate);
      if (spec.kind != "llm") throw UsageError("--generate takes llm:URL (an OpenAI-compatible chat endpoint)");
      if (options->judge.served.llm_model.empty()) throw UsageError("--generate needs --llm-model NAME (the model the endpoint serves)");
      auto endpoint = served;
      endpoint.endpoint.url = spec.location;
      request.questions = options->questions;
      request.generation.open_transport = [endpoint] { return served::open_transport(endpoint); };
      request.generation.model = options->judge.served.llm_model;
      request.generation.max_failures = options->judge.max_failures;
      if (!options->prompt_file.empty() && command_gave_prompt) throw UsageError("give --generate-prompt or --generate-prompt-file, not both");
      request.generation.prompt =
          !options->prompt_file.empty() ? std::filesystem::path(options->prompt_file)
          : options->prompt == "refusal" ? experiment::shipped_file("configs/prompts/grounding_answer_refusal.txt")
                                         : experiment::shipped_file("configs/prompts/grounding_answer.txt");
    } else if (!options->questions.empty()) {
      throw UsageError("--questions needs --generate llm:URL (the model that answers them)");
    }
    request.served = served;
    const auto config = shard_config(options->shard, options->config, options->reading);
    const auto sharded = ground_shard(*command, options->shard, request, source, config ? &*config : nullptr);
    with_shard_outputs(sharded, {.inputs = {options->answers, options->questions, options->data, options->original, options->run, options->model,
                             options->config, verifier_input(source), generates ? request.generation.prompt : std::filesystem::path{},
                             served.replay},
                  .files = {options->out, experiment::verifier_meta_output(options->request.verifier, options->out), served.record}},
                 [&](shard::ShardSelection* selection) {
                   request.shard = selection;
                   experiment::run_ground(request, config ? *config : config_from(options->config, options->reading));
                 });
  });
}

}  // namespace claimrag::cli
