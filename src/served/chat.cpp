#include "claimrag/served/chat.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/served/endpoint.hpp"

namespace claimrag::served {
namespace {

const nlohmann::json* first_message(const nlohmann::json& body) {
  if (!body.is_object()) return nullptr;
  const auto choices = body.find("choices");
  if (choices == body.end() || !choices->is_array() || choices->empty()) return nullptr;
  const auto& first = (*choices)[0];
  if (!first.is_object()) return nullptr;
  const auto message = first.find("message");
  if (message == first.end() || !message->is_object()) return nullptr;
  return &*message;
}

bool refused_schema(const JsonReply& reply) { return !reply.ok() && (reply.status == 400 || reply.status == 422); }

/// Every balanced {...} of `text`, as (open, close) offsets, found in one pass: a '{' pushes, a
/// '}' closes the last one open; quotes count only inside braces, where they delimit strings.
std::vector<std::pair<std::size_t, std::size_t>> balanced_braces(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  std::vector<std::size_t> open;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"' && !open.empty()) {
      in_string = true;
    } else if (c == '{') {
      open.push_back(i);
    } else if (c == '}' && !open.empty()) {
      pairs.emplace_back(open.back(), i);
      open.pop_back();
    }
  }
  return pairs;
}

}  // namespace

JsonRequest chat_request(const std::string& prompt, const ChatOptions& options) {
  if (options.model.empty()) throw UsageError("a chat endpoint needs a model name (--llm-model)");
  nlohmann::json body = {{"model", options.model},
                         {"messages", nlohmann::json::array({{{"role", "user"}, {"content", prompt}}})},
                         {"temperature", options.temperature},
                         {"stream", false}};
  if (options.max_tokens > 0) body["max_tokens"] = options.max_tokens;
  if (options.json_schema) {
    body["response_format"] = {
        {"type", "json_schema"},
        {"json_schema", {{"name", options.schema_name}, {"strict", true}, {"schema", *options.json_schema}}}};
  }
  return {"/chat/completions", std::move(body)};
}

std::string check_chat_reply(const nlohmann::json& body) {
  const nlohmann::json* message = first_message(body);
  if (message == nullptr) return "the reply has no choices[0].message";
  const auto refusal = message->find("refusal");
  if (refusal != message->end() && refusal->is_string() && !refusal->get_ref<const std::string&>().empty()) {
    return "the model refused: " + refusal->get<std::string>();
  }
  const auto content = message->find("content");
  if (content == message->end() || !content->is_string()) return "the reply has no choices[0].message.content";
  return {};
}

std::string chat_content(const nlohmann::json& body) {
  const nlohmann::json* message = first_message(body);
  if (message == nullptr || !message->contains("content") || !(*message)["content"].is_string()) {
    throw InternalError("chat_content on a reply check_chat_reply refuses");
  }
  return (*message)["content"].get<std::string>();
}

std::vector<JsonReply> exchange_chat(Transport& transport, std::span<const JsonRequest> requests) {
  std::vector<JsonReply> replies = transport.exchange(requests, check_chat_reply);
  std::vector<JsonRequest> again;
  std::vector<std::size_t> again_of;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (refused_schema(replies[i]) && requests[i].body.contains("response_format")) {
      JsonRequest plain = requests[i];
      plain.body.erase("response_format");
      again.push_back(std::move(plain));
      again_of.push_back(i);
    }
  }
  if (again.empty()) return replies;
  spdlog::info("{}: {} of {} requests refused with a JSON schema (status {}); sent again without it",
               transport.url(), again.size(), requests.size(), replies[again_of.front()].status);
  std::vector<JsonReply> plain = transport.exchange(again, check_chat_reply);
  for (std::size_t j = 0; j < again.size(); ++j) replies[again_of[j]] = std::move(plain[j]);
  return replies;
}

std::string_view after_thinking(std::string_view content) {
  constexpr std::string_view close = "</think>";
  const std::size_t at = content.rfind(close);
  return at == std::string_view::npos ? content : content.substr(at + close.size());
}

std::optional<nlohmann::json> json_in_content(std::string_view content, std::string_view key) {
  const std::string_view answer = after_thinking(content);
  // Nesting deeper than any answer is refused before a parser sees it (their printers recurse).
  if (io::json_nesting_depth(answer, kMaxReplyJsonDepth) > kMaxReplyJsonDepth) return std::nullopt;
  auto pairs = balanced_braces(answer);
  // The last object first (by where it ends), so an object is tried before the ones inside it.
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::optional<nlohmann::json> last;
  for (const auto& [open, close] : pairs) {
    auto parsed = nlohmann::json::parse(answer.substr(open, close - open + 1), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) continue;
    if (key.empty() || parsed.contains(key)) return parsed;
    if (!last) last = std::move(parsed);
  }
  return last;
}

}  // namespace claimrag::served
