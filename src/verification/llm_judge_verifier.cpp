#include "claimrag/verification/llm_judge_verifier.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/utf8.hpp"
#include "claimrag/served/chat.hpp"
#include "claimrag/text/prompt_template.hpp"

namespace claimrag::verification {
namespace {

constexpr std::array kLabels = {Label::support, Label::contradict, Label::not_enough_info};
constexpr std::size_t kMaxCited = 3;  ///< DocumentVerdict::rationale holds at most three sentences

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// An answer's text cut for a failure reason: enough to recognise it, never a whole essay.
std::string excerpt(std::string_view text) {
  constexpr std::size_t shown = 80;
  std::string out(io::utf8_prefix(text, shown));  // never inside a character: the writer would refuse it
  for (char& c : out) c = (c == '\n' || c == '\r') ? ' ' : c;
  return "\"" + out + (text.size() > out.size() ? "...\"" : "\"");
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

/// `text` in lower case, with the typographic apostrophe (U+2019) written as '.
std::string lowered_words(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, 3) == "\xE2\x80\x99") {
      out += '\'';
      i += 2;
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  }
  return out;
}

/// Whether `word` (lower case) denies what follows it.
bool is_negation(std::string_view word) {
  static constexpr std::array<std::string_view, 12> words = {"not",    "no",    "never", "cannot", "neither", "nor",
                                                             "without", "dont", "doesnt", "isnt",  "cant",    "wont"};
  return word.ends_with("n't") || std::find(words.begin(), words.end(), word) != words.end();
}

/// The words from a negation to a label word it denies ("not support", "doesn't contradict"), when
/// the text holds one: the negation among the three words before the label word, in its clause.
/// "", when none does.
std::string negated_label_word(std::string_view text) {
  static constexpr std::array<std::string_view, 3> stems = {"support", "contradict", "not_enough_info"};
  const std::string lowered = lowered_words(text);
  const std::string_view view(lowered);
  for (const std::string_view stem : stems) {
    for (std::size_t at = view.find(stem); at != std::string_view::npos; at = view.find(stem, at + 1)) {
      if (at > 0 && is_word_byte(view[at - 1])) continue;
      std::size_t end = at;
      for (int words = 0; words < 3; ++words) {
        while (end > 0 && (view[end - 1] == ' ' || view[end - 1] == '\t')) --end;
        std::size_t begin = end;
        while (begin > 0 && (is_word_byte(view[begin - 1]) || view[begin - 1] == '\'')) --begin;
        if (begin == end) break;  // the clause's start: punctuation, a line break or the text's start
        if (is_negation(view.substr(begin, end - begin))) {
          std::size_t word_end = at;
          while (word_end < view.size() && is_word_byte(view[word_end])) ++word_end;
          return std::string(view.substr(begin, word_end - begin));
        }
        end = begin;
      }
    }
  }
  return "";
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

/// Step 1: the verdict of an answer given as a JSON object. A cited number that is not one of the
/// document's sentences is dropped and counted in `dropped`: the label stands.
DocumentVerdict read_json_answer(const nlohmann::json& answer, const EvidenceDocument& document, std::size_t& dropped) {
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
    const auto count = static_cast<double>(document.sentences.size());
    for (const auto& number : *sentences) {
      const double value = number.is_number() ? number.get<double>() : 0.0;
      if (!number.is_number() || value != std::floor(value) || value < 1 || value > count) {
        ++dropped;
        continue;
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
    text = io::read_file(file, io::kSettingsInput);
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
  // One pass: an "{evidence}" inside the claim or a "{claim}" inside an abstract stays as written.
  return text::fill_placeholders(prompt_template, {{"claim", std::string(claim)}, {"evidence", numbered_evidence(document)}});
}

DocumentVerdict read_judge_answer(std::string_view content, std::string_view claim, const EvidenceDocument& document,
                                  const JudgeTextResolver& resolve_text, std::size_t* dropped_citations) {
  std::size_t dropped = 0;
  if (const auto answer = served::json_in_content(content, "label")) {
    DocumentVerdict verdict = read_json_answer(*answer, document, dropped);
    if (dropped_citations != nullptr && verdict.failure.empty()) *dropped_citations += dropped;
    return verdict;
  }
  // A reasoning model's thinking is not its answer.
  content = served::after_thinking(content);
  // An object begun and not finished is a broken answer to the JSON asked for, not free text: the
  // label names inside it may be the schema's list or a cut-off reply's.
  if (content.find('{') != std::string_view::npos) {
    return failed_verdict(document, "the answer's JSON cannot be read: " + excerpt(content));
  }
  // "does not SUPPORT" names a label and denies it: neither the label nor its opposite is read.
  if (const std::string negated = negated_label_word(content); !negated.empty()) {
    return failed_verdict(document, "the answer negates a label (" + excerpt(negated) + "): " + excerpt(content));
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
  std::size_t dropped = 0;
  for (const auto& input : inputs) {
    ClaimVerdict verdict{input.claim_id, {}, {}};
    for (const auto& document : input.documents) {
      const served::JsonReply& reply = replies[next++];
      verdict.documents.push_back(
          reply.ok() ? read_judge_answer(served::chat_content(reply.body), input.claim, document, options_.resolve_text, &dropped)
                     : failed_verdict(document, reply.failure));
    }
    verdicts.push_back(std::move(verdict));
  }
  if (dropped > 0) {
    const std::lock_guard lock(mutex_);
    dropped_citations_ += dropped;
    spdlog::warn("LLM judge: {} cited sentence numbers outside the documents' numbered sentences dropped ({} so far); "
                 "the labels stand",
                 dropped, dropped_citations_);
    if (options_.report_dropped_citations) options_.report_dropped_citations(dropped_citations_);
  }
  return verdicts;
}

void LlmJudgeVerifier::save(const std::filesystem::path& file) const {
  throw UsageError("--save-model " + file.string() + ": a served judge (--verifier llm:URL) has no model file to save");
}

}  // namespace claimrag::verification
