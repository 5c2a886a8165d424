#include "claimrag/verification/llm_judge_verifier.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/served/chat.hpp"

namespace claimrag::verification {
namespace {

constexpr std::array kLabels = {Label::support, Label::contradict, Label::not_enough_info};
constexpr std::size_t kMaxCited = 3;  ///< DocumentVerdict::rationale holds at most three sentences

void replace_all(std::string& text, std::string_view slot, std::string_view value) {
  for (std::size_t at = text.find(slot); at != std::string::npos; at = text.find(slot, at + value.size())) {
    text.replace(at, slot.size(), value);
  }
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// An answer's text cut for a failure reason: enough to recognise it, never a whole essay.
std::string excerpt(std::string_view text) {
  constexpr std::size_t shown = 80;
  std::string out(text.substr(0, shown));
  for (char& c : out) c = (c == '\n' || c == '\r') ? ' ' : c;
  return "\"" + out + (text.size() > shown ? "...\"" : "\"");
}

bool is_word_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// Step 2's first half: the one label name standing as a whole word in the text, if exactly one
/// distinct name does ("Answer: CONTRADICT"; "SUPPORT or CONTRADICT" decides nothing).
std::optional<Label> label_named_in(std::string_view text) {
  std::optional<Label> found;
  for (const Label label : kLabels) {
    const std::string_view name = label_name(label);
    for (std::size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      const bool starts = at == 0 || !is_word_byte(text[at - 1]);
      const bool ends = at + name.size() == text.size() || !is_word_byte(text[at + name.size()]);
      if (!starts || !ends) continue;
      if (found && *found != label) return std::nullopt;
      found = label;
      break;
    }
  }
  return found;
}

DocumentVerdict readable_verdict(const EvidenceDocument& document, Label label, std::vector<std::size_t> cited) {
  DocumentVerdict verdict;
  verdict.doc_id = document.doc_id;
  verdict.label = label;
  verdict.probabilities[static_cast<std::size_t>(label)] = 1.0;
  if (label == Label::not_enough_info) cited.clear();
  for (std::size_t s = 0; s < document.sentences.size(); ++s) verdict.sentence_scores.push_back({s, 0.0});
  for (const std::size_t index : cited) {
    if (verdict.rationale.size() == kMaxCited) break;
    if (std::find(verdict.rationale.begin(), verdict.rationale.end(), index) != verdict.rationale.end()) continue;
    verdict.rationale.push_back(index);
    verdict.sentence_scores[index].score = 1.0;
  }
  return verdict;
}

/// Step 1: the verdict of an answer given as a JSON object.
DocumentVerdict read_json_answer(const nlohmann::json& answer, const EvidenceDocument& document) {
  if (!answer.is_object()) return failed_verdict(document, "the answer's JSON is not an object: " + excerpt(answer.dump()));
  const auto label_field = answer.find("label");
  if (label_field == answer.end() || !label_field->is_string()) {
    return failed_verdict(document, "the answer has no \"label\" string: " + excerpt(answer.dump()));
  }
  const std::string label_text = upper(label_field->get<std::string>());
  const auto named = std::find_if(kLabels.begin(), kLabels.end(), [&](Label l) { return label_name(l) == label_text; });
  if (named == kLabels.end()) {
    return failed_verdict(document, "the answer's label " + excerpt(label_field->get<std::string>()) +
                                        " is none of SUPPORT, CONTRADICT, NOT_ENOUGH_INFO");
  }
  std::vector<std::size_t> cited;
  if (const auto sentences = answer.find("sentences"); sentences != answer.end()) {
    if (!sentences->is_array()) return failed_verdict(document, "the answer's \"sentences\" is not an array");
    const std::size_t count = document.sentences.size();
    for (const auto& number : *sentences) {
      const bool whole = number.is_number_integer() || (number.is_number_float() && number.get<double>() == std::floor(number.get<double>()));
      const double value = number.is_number() ? number.get<double>() : 0.0;
      if (!whole || value < 1 || value > static_cast<double>(count)) {
        return failed_verdict(document, "the answer cites sentence " + number.dump() + ", not a number in [1, " +
                                            std::to_string(count) + "]");
      }
      cited.push_back(static_cast<std::size_t>(value) - 1);
    }
  }
  return readable_verdict(document, *named, std::move(cited));
}

}  // namespace

std::string load_judge_prompt(const std::filesystem::path& file) {
  std::string text;
  try {
    text = io::read_file(file);
  } catch (const Error& error) {
    throw UsageError("--prompt " + file.string() + ": cannot be read (" + error.what() + ")");
  }
  for (const std::string_view slot : {"{claim}", "{evidence}"}) {
    if (text.find(slot) == std::string::npos) {
      throw UsageError("--prompt " + file.string() + ": the judge's prompt has no " + std::string(slot) + " slot");
    }
  }
  return text;
}

nlohmann::json judge_answer_schema() {
  return {{"type", "object"},
          {"properties",
           {{"label", {{"type", "string"}, {"enum", {"SUPPORT", "CONTRADICT", "NOT_ENOUGH_INFO"}}}},
            {"sentences", {{"type", "array"}, {"items", {{"type", "integer"}, {"minimum", 1}}}}}}},
          {"required", {"label", "sentences"}},
          {"additionalProperties", false}};
}

std::string numbered_evidence(const EvidenceDocument& document) {
  std::string text;
  for (std::size_t s = 0; s < document.sentences.size(); ++s) {
    if (s > 0) text += '\n';
    text += "[" + std::to_string(s + 1) + "] " + document.sentences[s];
  }
  return text;
}

std::string judge_prompt(std::string_view prompt_template, std::string_view claim, const EvidenceDocument& document) {
  // The evidence is filled last so that a "{claim}" inside an abstract stays as written.
  std::string prompt(prompt_template);
  replace_all(prompt, "{claim}", claim);
  replace_all(prompt, "{evidence}", numbered_evidence(document));
  return prompt;
}

DocumentVerdict failed_verdict(const EvidenceDocument& document, std::string reason) {
  DocumentVerdict verdict;
  verdict.doc_id = document.doc_id;
  verdict.label = Label::not_enough_info;
  verdict.probabilities = {0.0, 0.0, 1.0};
  for (std::size_t s = 0; s < document.sentences.size(); ++s) verdict.sentence_scores.push_back({s, 0.0});
  verdict.failure = std::move(reason);
  return verdict;
}

DocumentVerdict read_judge_answer(std::string_view content, std::string_view claim, const EvidenceDocument& document,
                                  const JudgeTextResolver& resolve_text) {
  if (const auto answer = served::json_in_content(content)) return read_json_answer(*answer, document);
  // An object begun and not finished is a broken answer to the JSON asked for, not free text: the
  // label names inside it may be the schema's list or a cut-off reply's.
  if (content.find('{') != std::string_view::npos) {
    return failed_verdict(document, "the answer's JSON cannot be read: " + excerpt(content));
  }
  if (const auto named = label_named_in(content)) return readable_verdict(document, *named, {});
  if (resolve_text) {
    if (const auto resolved = resolve_text(content, claim)) return readable_verdict(document, *resolved, {});
  }
  return failed_verdict(document, "the answer holds no JSON object and no label: " + excerpt(content));
}

LlmJudgeVerifier::LlmJudgeVerifier(std::unique_ptr<served::Transport> transport, LlmJudgeOptions options)
    : transport_(std::move(transport)), options_(std::move(options)) {
  if (!transport_) throw InternalError("LlmJudgeVerifier: no transport");
  if (options_.model.empty()) throw UsageError("--verifier llm:URL needs --llm-model NAME (the model the endpoint serves)");
  for (const std::string_view slot : {"{claim}", "{evidence}"}) {
    if (options_.prompt_template.find(slot) == std::string::npos) {
      throw UsageError("the judge's prompt has no " + std::string(slot) + " slot");
    }
  }
}

std::vector<ClaimVerdict> LlmJudgeVerifier::verify(std::span<const VerificationInput> inputs) const {
  const served::ChatOptions chat{.model = options_.model,
                                 .temperature = options_.temperature,
                                 .max_tokens = 0,
                                 .json_schema = judge_answer_schema(),
                                 .schema_name = "verdict"};
  std::vector<served::JsonRequest> requests;
  for (const auto& input : inputs) {
    for (const auto& document : input.documents) {
      requests.push_back(served::chat_request(judge_prompt(options_.prompt_template, input.claim, document), chat));
    }
  }
  std::vector<served::JsonReply> replies;
  {
    const std::lock_guard lock(mutex_);
    replies = served::exchange_chat(*transport_, requests);
  }
  if (replies.size() != requests.size()) throw InternalError("LlmJudgeVerifier: replies and requests differ in number");
  std::vector<ClaimVerdict> verdicts;
  verdicts.reserve(inputs.size());
  std::size_t next = 0;
  for (const auto& input : inputs) {
    ClaimVerdict verdict{input.claim_id, {}, {}};
    for (const auto& document : input.documents) {
      const served::JsonReply& reply = replies[next++];
      verdict.documents.push_back(
          reply.ok() ? read_judge_answer(served::chat_content(reply.body), input.claim, document, options_.resolve_text)
                     : failed_verdict(document, reply.failure));
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

void LlmJudgeVerifier::save(const std::filesystem::path& file) const {
  throw UsageError("--save-model " + file.string() + ": a served judge (--verifier llm:URL) has no model file to save");
}

}  // namespace claimrag::verification
