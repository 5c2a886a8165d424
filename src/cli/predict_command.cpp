#include <spdlog/spdlog.h>

#include "claimrag/pretrained/predict.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "shard_flags.hpp"

namespace claimrag::cli {

void add_predict_command(CLI::App& root) {
  auto options = std::make_shared<pretrained::PredictOptions>();
  auto shard_text = std::make_shared<std::string>();  // --shard
  auto* command = root.add_subcommand(
      "predict", "Run a Hugging Face checkpoint (BERT, RoBERTa, DeBERTa-v2/v3; T5 with --label-tokens) over texts or text pairs");
  command->add_option("--checkpoint", options->checkpoint, "Model folder: config.json, safetensors weights, tokenizer")
      ->required();
  command->add_option("--pairs", options->pairs, "JSON Lines of {\"id\", \"text\", \"text_pair\"?}")->required();
  command->add_option("--out", options->out, "JSON Lines to write, one line per input in input order")->required();
  command->add_option("--max-length", options->max_length, "Tokens per input, special ones included (default: the folder's own length, at most the model's positions)")
      ->check(number_in(1, 1e6));
  command->add_option("--batch-size", options->batch_size, "Sequences held in memory at once (default 32)")
      ->check(number_in(1, 1e6));
  command->add_option("--label-tokens", options->label_tokens,
                      "A T5 checkpoint's outputs: the logits of these token ids at the decoder's first step, one per label, "
                      "comma-separated (MiniCheck-Flan-T5: 3,209)")
      ->delimiter(',');
  add_threads_option(*command);
  add_precision_option(*command);
  add_shard_option(*command, *shard_text);
  command->callback([options, shard_text, command] {
    pretrained::PredictSummary summary;
    with_shard_outputs(sharded_command(*command, "predict", *shard_text, options->out, {}, {}),
                       {.inputs = {options->checkpoint, options->pairs}, .files = {options->out}},
                       [&](shard::ShardSelection* selection) {
                         auto sharded = *options;
                         sharded.shard = selection;
                         summary = pretrained::run_predict(sharded);
                       });
    spdlog::info("predict: {} lines written to {}", summary.inputs, options->out.string());
  });
}

}  // namespace claimrag::cli
