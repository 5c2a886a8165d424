#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/io/json_output.hpp"
#include "claimrag/pretrained/model_clock.hpp"
#include "claimrag/pretrained/predict.hpp"
#include "claimrag/pretrained/text_model.hpp"

namespace claimrag::pretrained {
namespace {

// The double whose shortest decimal is the float's shortest decimal: 0.1F is written 0.1, not
// 0.10000000149011612, and still reads back as the same float.
double shortest(float value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  *result.ptr = '\0';
  return std::strtod(buffer, nullptr);
}

nlohmann::ordered_json number_list(const std::vector<float>& values) {
  auto list = nlohmann::ordered_json::array();
  for (const float v : values) list.push_back(shortest(v));
  return list;
}

void add_head_output(const PretrainedModel& model, const std::vector<float>& values, nlohmann::ordered_json& line) {
  switch (model.head()) {
    case HeadKind::embedding: line["embedding"] = number_list(values); return;
    case HeadKind::score: line["score"] = shortest(values.front()); return;
    case HeadKind::classification: break;
  }
  const auto& labels = model.config().labels;
  line["logits"] = number_list(values);
  // The label of the largest logit; ties go to the lower label id.
  const std::size_t best = static_cast<std::size_t>(std::max_element(values.begin(), values.end()) - values.begin());
  const std::vector<double> softmaxed = softmax(values);
  auto probabilities = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < values.size(); ++i) probabilities[labels[i]] = shortest(static_cast<float>(softmaxed[i]));
  line["probabilities"] = std::move(probabilities);
  line["label"] = labels[best];
}

}  // namespace

std::string predict_lines(const PretrainedModel& model, const tokenizer::Tokenizer& tokenizer,
                          const std::vector<PairInput>& inputs, std::size_t max_length, std::size_t batch_size,
                          const std::string& source, PredictSummary& summary) {
  const auto limit = static_cast<std::size_t>(model.config().max_tokens());
  if (max_length > limit) {
    throw UsageError("--max-length " + std::to_string(max_length) + " exceeds the " + std::to_string(limit) +
                     " positions of " + model.folder().string());
  }
  // No length given: the tokenizer's own (model_max_length, sentence-transformers' max_seq_length).
  const std::size_t length = tokenizer::length_to_encode(tokenizer, max_length, limit);
  std::vector<TokenSequence> sequences;
  std::vector<std::size_t> truncated(inputs.size(), 0);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto& input = inputs[i];
    tokenizer::Encoding encoding;
    try {
      const StageTimer timer(ModelStage::tokenizing);
      encoding = tokenizer.encode(input.text, input.text_pair ? std::optional<std::string_view>(*input.text_pair) : std::nullopt,
                                  length);
    } catch (const DataError& error) {
      throw DataError(source, input.line, error.what());
    }
    TokenSequence sequence{std::move(encoding.input_ids), std::move(encoding.token_type_ids)};
    const std::string problem = model.input_problem(sequence);
    if (!problem.empty()) throw DataError(source, input.line, "the tokenizer gave " + problem);
    truncated[i] = encoding.truncated_tokens;
    if (encoding.truncated_tokens > 0) {
      ++summary.truncated_inputs;
      summary.truncated_tokens += encoding.truncated_tokens;
    }
    sequences.push_back(std::move(sequence));
  }
  const auto predictions = model.predict(sequences, RunOptions{batch_size, false});
  std::string text;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    nlohmann::ordered_json line;
    line["id"] = inputs[i].id;
    line["input_ids"] = sequences[i].input_ids;
    if (truncated[i] > 0) line["truncated_tokens"] = truncated[i];
    add_head_output(model, predictions[i].values, line);
    text += io::json_text(line, source) + "\n";
  }
  summary.inputs += inputs.size();
  summary.model = model.description();
  return text;
}

}  // namespace claimrag::pretrained
