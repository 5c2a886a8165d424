#include "claimrag/served/chat.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"

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

/// The first balanced {...} from `start` on (strings and escapes respected), or npos.
std::size_t balanced_end(std::string_view text, std::size_t start) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{') ++depth;
    else if (c == '}' && --depth == 0) return i;
  }
  return std::string_view::npos;
}

std::optional<nlohmann::json> object_in(std::string_view text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_discarded() && parsed.is_object()) return parsed;
  return std::nullopt;
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

std::optional<nlohmann::json> json_in_content(std::string_view content) {
  if (auto whole = object_in(content)) return whole;
  // A fenced block: ```json ... ``` or ``` ... ```.
  for (std::size_t fence = content.find("```"); fence != std::string_view::npos; fence = content.find("```", fence + 3)) {
    std::size_t start = content.find('\n', fence + 3);
    if (start == std::string_view::npos) break;
    const std::size_t end = content.find("```", start + 1);
    if (end == std::string_view::npos) break;
    if (auto block = object_in(content.substr(start + 1, end - start - 1))) return block;
    fence = end;
  }
  for (std::size_t open = content.find('{'); open != std::string_view::npos; open = content.find('{', open + 1)) {
    const std::size_t close = balanced_end(content, open);
    if (close == std::string_view::npos) continue;
    if (auto object = object_in(content.substr(open, close - open + 1))) return object;
  }
  return std::nullopt;
}

}  // namespace claimrag::served
