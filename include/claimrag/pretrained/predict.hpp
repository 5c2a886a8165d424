#pragma once
// Running a checkpoint over text pairs, as `claimrag predict` does: JSON Lines in
// ({"id", "text", "text_pair"?}), one JSON line out per input in input order with the token ids
// and the head's output: "logits", "probabilities" (by label name) and "label" for a classifier,
// "score" for a one-logit head, "embedding" for a sentence encoder.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/pretrained/pretrained_model.hpp"
#include "claimrag/shard/shard_selection.hpp"
#include "claimrag/tokenizer/tokenizer.hpp"

namespace claimrag::pretrained {

struct PredictOptions {
  std::filesystem::path checkpoint;
  std::filesystem::path pairs;
  std::filesystem::path out;
  std::size_t max_length = 0;  ///< tokens per input, special ones included; 0: all the model's positions
  std::size_t batch_size = 32;
  std::vector<std::int32_t> label_tokens;  ///< a T5 checkpoint's (LoadOptions::label_tokens); empty for the others
  shard::ShardSelection* shard = nullptr;  ///< the shard of the inputs to run (shard_selection.hpp); nullptr: all
};

/// One input line.
struct PairInput {
  std::string id;
  std::string text;
  std::optional<std::string> text_pair;
  std::size_t line = 0;  ///< 1-based line of the input file
};

struct PredictSummary {
  std::size_t inputs = 0;
  std::size_t truncated_inputs = 0;  ///< inputs cut to fit max_length
  std::size_t truncated_tokens = 0;  ///< tokens removed from them in all
  std::string model;                 ///< PretrainedModel::description()
};

/// Reads the JSON Lines of `path`. Blank lines are skipped. DataError "file:line: reason" for
/// malformed JSON, a missing or non-string "id" or "text", a non-string "text_pair", another
/// field, a key repeated in one object, or an id seen before; also for a file with no input at all
/// (dataset::for_each_json_object's rules).
std::vector<PairInput> read_pair_inputs(const std::filesystem::path& path);

/// The output lines for `inputs`, tokenised by `tokenizer` to at most `max_length` tokens (0: the
/// model's limit; UsageError when larger than it). Counts truncations in `summary`. DataError
/// naming `source` and the line for an input the tokenizer refuses.
std::string predict_lines(const PretrainedModel& model, const tokenizer::Tokenizer& tokenizer,
                          const std::vector<PairInput>& inputs, std::size_t max_length, std::size_t batch_size,
                          const std::string& source, PredictSummary& summary);

/// The whole command: loads the checkpoint (with `label_tokens`) and its tokenizer, reads the
/// pairs, writes `out` atomically (nothing is written on any error). UsageError when `out` is the
/// pairs file, or for a T5 checkpoint without label tokens (load_pretrained_model's rules).
PredictSummary run_predict(const PredictOptions& options);

}  // namespace claimrag::pretrained
