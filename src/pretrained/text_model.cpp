#include "claimrag/pretrained/text_model.hpp"

#include <algorithm>
#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/model_folder.hpp"
#include "claimrag/pretrained/model_clock.hpp"

namespace claimrag::pretrained {
namespace {

namespace fs = std::filesystem;

bool is_weight_file(const fs::path& path) {
  const std::string name = path.filename().string();
  return path.extension() == ".safetensors" || name == "model.safetensors.index.json" ||
         (name.rfind("pytorch_model", 0) == 0 && (path.extension() == ".bin" || name == "pytorch_model.bin.index.json"));
}

}  // namespace

TextModel::TextModel(const fs::path& folder, const LoadOptions& options)
    : model_(load_pretrained_model(folder, options)), tokenizer_(tokenizer::load_tokenizer(folder, model_.config().model_type)) {}

TextOutputs TextModel::run(std::span<const TextInput> inputs, std::size_t max_length, std::size_t batch_size,
                           const std::string& source) const {
  const auto limit = static_cast<std::size_t>(model_.config().max_tokens());
  if (max_length > limit) {
    throw UsageError("a maximum length of " + std::to_string(max_length) + " tokens exceeds the " + std::to_string(limit) +
                     " positions of " + folder().string());
  }
  // No length given: the tokenizer's own (model_max_length, sentence-transformers' max_seq_length).
  const std::size_t length = tokenizer::length_to_encode(*tokenizer_, max_length, limit);
  TextOutputs outputs;
  outputs.truncated_tokens.reserve(inputs.size());
  std::vector<TokenSequence> sequences;
  sequences.reserve(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    tokenizer::Encoding encoding;
    try {
      const StageTimer timer(ModelStage::tokenizing);
      encoding = tokenizer_->encode(inputs[i].text, inputs[i].text_pair, length);
    } catch (const DataError& error) {
      throw DataError(source, "input " + std::to_string(i + 1) + ": " + error.what());
    }
    outputs.truncated_tokens.push_back(encoding.truncated_tokens);
    sequences.push_back({std::move(encoding.input_ids), std::move(encoding.token_type_ids)});
  }
  auto predictions = model_.predict(sequences, RunOptions{batch_size, false});
  outputs.values.reserve(predictions.size());
  for (auto& prediction : predictions) outputs.values.push_back(std::move(prediction.values));
  return outputs;
}

nlohmann::ordered_json checkpoint_files_record(const fs::path& folder) {
  (void)io::check_model_folder(folder);
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && is_weight_file(entry.path())) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  auto weights = nlohmann::ordered_json::object();
  // Streamed, not mapped: the record is written with the model loaded, and a mapped weight file's
  // pages would stay resident beside the loaded weights (twice the weights at the peak).
  for (const auto& file : files) weights[file.filename().string()] = io::file_checksum(file);
  const fs::path config_file = folder / "config.json";
  nlohmann::ordered_json record;
  record["folder"] = folder.string();
  try {
    record["config"] = nlohmann::ordered_json::parse(io::read_json_text(config_file));
  } catch (const nlohmann::json::parse_error& error) {
    throw DataError(config_file.string(), std::string("malformed JSON: ") + error.what());
  }
  record["weights_xxh64"] = std::move(weights);
  return record;
}

nlohmann::ordered_json TextModel::record() const {
  nlohmann::ordered_json record = checkpoint_files_record(folder());
  record["model"] = model_.description();
  record["precision"] = precision_name(model_.precision());
  record["tokenizer"] = tokenizer_->description();
  return record;
}

std::vector<double> softmax(std::span<const float> logits) {
  std::vector<double> probabilities(logits.size());
  if (logits.empty()) return probabilities;
  const double largest = *std::max_element(logits.begin(), logits.end());
  double total = 0.0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    probabilities[i] = std::exp(static_cast<double>(logits[i]) - largest);
    total += probabilities[i];
  }
  for (double& p : probabilities) p /= total;
  return probabilities;
}

}  // namespace claimrag::pretrained
