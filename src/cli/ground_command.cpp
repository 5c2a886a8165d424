#include "claimrag/experiment/systems/ground_answers.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "commands.hpp"
#include "judge_flags.hpp"
#include "options.hpp"

namespace claimrag::cli {

void add_ground_command(CLI::App& root) {
  struct Options {
    experiment::GroundRequest request;
    std::string answers, out, data, original, run, model, config;
    double support_threshold = -1, conflict_threshold = -1;
    JudgeFlags judge;
  };
  auto options = std::make_shared<Options>();
  auto* command = root.add_subcommand(
      "ground", "Keep the sentences of an answer that its sources support and drop the rest (or answer \"I don't know\")");
  command->add_option("--answers", options->answers, "JSON Lines of {\"id\", \"answer\", \"context\"?}")->required();
  command->add_option("--out", options->out, "JSON Lines to write, one grounded answer a line")->required();
  add_data_option(*command, options->data)->required(false);
  command->add_option("--original", options->original, "SciFact release layout: its abstracts' sentences");
  command->add_option("--run", options->run, "TREC run giving the context of answers without one (by answer id)");
  command->add_option("--k", options->request.k, "Documents taken from --run (default 10)")->check(number_in(1, 1000));
  command->add_option("--model", options->model,
                      "Saved verifier (verify --pairs --save-model, or the reproduction's models/verifier_oracle.safetensors); "
                      "default: the built-in free-text verifier, trained on SciFact once and cached");
  add_verifier_option(*command, options->request.verifier);
  command->add_option("--support-threshold", options->support_threshold, "tau_s (default: the config's grounding.support_threshold)")
      ->check(number_in(0, 1));
  command->add_option("--conflict-threshold", options->conflict_threshold, "tau_c (default: the config's grounding.conflict_threshold)")
      ->check(number_in(0, 1));
  add_judge_flags(*command, options->judge);
  add_config_option(*command, options->config);
  add_threads_option(*command);
  command->callback([options] {
    auto request = options->request;
    request.answers = options->answers;
    request.out = options->out;
    request.data = options->data;
    request.original = options->original;
    request.run = options->run;
    request.model = options->model;
    if (options->support_threshold >= 0) request.support_threshold = options->support_threshold;
    if (options->conflict_threshold >= 0) request.conflict_threshold = options->conflict_threshold;
    const auto source = apply_judge_flags(request, options->judge, options->out);
    with_outputs({.inputs = {options->answers, options->data, options->original, options->run, options->model, options->config,
                             judge_prompt_input(source), source.served.replay},
                  .files = {options->out, experiment::verifier_meta_output(options->request.verifier, options->out),
                            source.served.record}},
                 [&] { experiment::run_ground(request, config_from(options->config)); });
  });
}

}  // namespace claimrag::cli
