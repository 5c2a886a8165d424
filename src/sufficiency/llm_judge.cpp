#include "claimrag/sufficiency/llm_judge.hpp"

#include <algorithm>
#include <cctype>

#include "claimrag/error.hpp"

namespace claimrag::sufficiency {
namespace {

constexpr SufficiencyLabel kLabels[] = {SufficiencyLabel::supported, SufficiencyLabel::refuted, SufficiencyLabel::insufficient};

std::string lowered_trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return "";
  text = text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
  std::string lowered(text);
  std::transform(lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lowered;
}

}  // namespace

nlohmann::json judge_label_schema() {
  nlohmann::json names = nlohmann::json::array();
  for (const auto label : kLabels) names.push_back(std::string(label_name(label)));
  return {{"type", "object"},
          {"properties", {{"label", {{"type", "string"}, {"enum", names}}}}},
          {"required", {"label"}},
          {"additionalProperties", false}};
}

served::ChatOptions judge_chat_options(const std::string& model) {
  served::ChatOptions options;
  options.model = model;
  options.temperature = 0.0;
  options.json_schema = judge_label_schema();
  options.schema_name = "sufficiency_label";
  return options;
}

std::string judge_prompt(const text::PromptTemplate& prompt, const std::string& claim, const std::vector<std::string>& passages) {
  return prompt.render({{"claim", claim}, {"passages", text::numbered_passages(passages)}});
}

std::optional<SufficiencyLabel> read_judge_label(std::string_view content, std::string& why) {
  const auto object = served::json_in_content(content);
  if (!object || !object->is_object()) {
    why = "no JSON object in the answer";
    return std::nullopt;
  }
  const auto label = object->find("label");
  if (label == object->end() || !label->is_string()) {
    why = "the answer has no \"label\" string";
    return std::nullopt;
  }
  const std::string given = lowered_trimmed(label->get<std::string>());
  for (const auto candidate : kLabels) {
    if (given == lowered_trimmed(label_name(candidate))) return candidate;
  }
  why = "the answer's \"label\" is " + label->dump() + ", not Supported, Refuted or Insufficient";
  return std::nullopt;
}

std::vector<JudgeDecision> judge_examples(served::Transport& transport, const text::PromptTemplate& prompt,
                                          const served::ChatOptions& chat, const std::vector<Example>& examples,
                                          std::vector<ScoredExample>& prepared) {
  std::vector<std::size_t> input_of;
  prepared.clear();
  prepare_examples(examples, prepared, input_of);
  std::vector<JudgeDecision> decisions(examples.size());
  std::vector<served::JsonRequest> requests;
  std::vector<std::size_t> example_of_request;
  for (std::size_t e = 0; e < examples.size(); ++e) {
    if (!prepared[e].reason.empty()) {  // not sent: SURE's rule, Insufficient with the reason
      decisions[e].label = SufficiencyLabel::insufficient;
      decisions[e].reason = prepared[e].reason;
      continue;
    }
    std::vector<std::string> passages;
    for (const std::size_t kept : prepared[e].kept) passages.push_back(examples[e].evidence[kept]);
    requests.push_back(served::chat_request(judge_prompt(prompt, examples[e].claim, passages), chat));
    example_of_request.push_back(e);
    decisions[e].sent = true;
  }
  const auto replies = served::exchange_chat(transport, requests);
  if (replies.size() != requests.size()) throw InternalError("the transport answered a different number of requests");
  for (std::size_t r = 0; r < replies.size(); ++r) {
    auto& decision = decisions[example_of_request[r]];
    if (!replies[r].ok()) {
      decision.failure = replies[r].failure;
      continue;
    }
    std::string why;
    decision.label = read_judge_label(served::chat_content(replies[r].body), why);
    if (!decision.label) decision.failure = why;
  }
  return decisions;
}

nlohmann::ordered_json judge_output_line(const Example& example, const ScoredExample& prepared, const JudgeDecision& decision) {
  nlohmann::ordered_json line{{"id", example.id}};
  if (decision.failed()) {
    line["label"] = nullptr;
    line["probabilities"] = nullptr;
    line["score"] = nullptr;
    line["uncertainty"] = nullptr;
    line["decision"] = "abstain";
    line["failure"] = decision.failure;
  } else {
    const auto label = *decision.label;
    line["label"] = label_name(label);
    nlohmann::ordered_json probabilities;
    for (const auto candidate : kLabels) probabilities[std::string(label_name(candidate))] = candidate == label ? 1.0 : 0.0;
    line["probabilities"] = probabilities;
    line["score"] = label == SufficiencyLabel::supported ? 1.0 : 0.0;
    line["uncertainty"] = 0.0;
    line["decision"] = label == SufficiencyLabel::supported ? "answer" : "abstain";
    if (!decision.reason.empty()) line["reason"] = decision.reason;
  }
  line["passages"] = decision.sent ? prepared.kept.size() : 0;  // the passages the model was shown
  line["duplicates_removed"] = prepared.duplicates_removed;
  line["blank_removed"] = prepared.blank_removed;
  line["features"] = nlohmann::ordered_json::object();
  return line;
}

}  // namespace claimrag::sufficiency
