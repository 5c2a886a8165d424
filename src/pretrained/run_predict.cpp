#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/predict.hpp"

namespace claimrag::pretrained {

PredictSummary run_predict(const PredictOptions& options) {
  std::error_code same_error;
  if (std::filesystem::exists(options.out) && std::filesystem::equivalent(options.out, options.pairs, same_error)) {
    throw UsageError("--out " + options.out.string() + " is the --pairs file; refusing to overwrite the input");
  }
  LoadOptions load;
  load.label_tokens = options.label_tokens;
  const auto model = load_pretrained_model(options.checkpoint, load);
  const auto tokenizer = tokenizer::load_tokenizer(options.checkpoint, model.config().model_type);
  const auto inputs = shard::keep_shard(read_pair_inputs(options.pairs), options.shard);
  spdlog::info("predict: {} ({}), {} inputs", options.checkpoint.string(), model.description(), inputs.size());
  PredictSummary summary;
  const std::string text =
      predict_lines(model, *tokenizer, inputs, options.max_length, options.batch_size, options.pairs.string(), summary);
  if (summary.truncated_inputs > 0) {
    spdlog::warn("predict: {} of {} inputs were longer than {} tokens and truncated ({} tokens removed in all; "
                 "each line says how many in \"truncated_tokens\")",
                 summary.truncated_inputs, summary.inputs,
                 tokenizer::length_to_encode(*tokenizer, options.max_length,
                                             static_cast<std::size_t>(model.config().max_tokens())),
                 summary.truncated_tokens);
  }
  io::write_file_atomically(options.out, text);
  return summary;
}

}  // namespace claimrag::pretrained
