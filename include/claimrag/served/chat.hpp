#pragma once
// The OpenAI-compatible chat-completions API, as every chat backend uses it (the LLM judge,
// answer generation, interrogation's HTTP responder): the request body, and reading the reply.
//
// Request: POST <url>/chat/completions with
//   {"model", "messages": [{"role": "user", "content": prompt}], "temperature", "stream": false}
// plus "max_tokens" when set, and, when a JSON schema is given,
//   "response_format": {"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}
// which llama.cpp's server, vLLM, Ollama and OpenAI honour; a server without it answers 400 or
// ignores it, so callers always read the content as text and resolve it themselves.
//
// Reply: choices[0].message.content, a string. A reply whose message carries a "refusal" string
// (OpenAI's structured-output refusals) or whose content is null is not an answer.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/served/exchange.hpp"

namespace claimrag::served {

struct ChatOptions {
  std::string model = {};                   ///< required
  double temperature = 0.0;
  std::size_t max_tokens = 0;               ///< 0: not sent (the server's default)
  std::optional<nlohmann::json> json_schema = {};  ///< sent as response_format when set
  std::string schema_name = "answer";
};

/// The request for `prompt` (see above).
JsonRequest chat_request(const std::string& prompt, const ChatOptions& options);

/// ReplyCheck for chat completions: "" for a reply with choices[0].message.content a string, else
/// why not ("the model refused: ...", "the reply has no choices[0].message.content").
std::string check_chat_reply(const nlohmann::json& body);

/// choices[0].message.content of a reply check_chat_reply accepted.
std::string chat_content(const nlohmann::json& body);

/// Sends chat `requests` through `transport` with check_chat_reply. A request carrying
/// response_format that the server refuses with status 400 or 422 (no JSON-schema support) is sent
/// once more without it, and that reply stands; the fallback is logged once per call. Replies in
/// request order.
std::vector<JsonReply> exchange_chat(Transport& transport, std::span<const JsonRequest> requests);

/// What follows a reasoning model's thinking in `content`: the text after the last "</think>",
/// or all of it.
std::string_view after_thinking(std::string_view content);

/// The JSON object a model wrote in `content`: of the balanced {...} in the text after a
/// reasoning model's thinking (after the last "</think>") that parse as objects, the last one
/// holding `key` (the schema's required field; any object when `key` is empty), else the last
/// one; an object is preferred to the objects inside it. A fenced ```json block is found the same
/// way. nullopt when there is none, or when the text nests deeper than kMaxReplyJsonDepth: the
/// caller resolves the text otherwise or counts a failure.
std::optional<nlohmann::json> json_in_content(std::string_view content, std::string_view key = {});

}  // namespace claimrag::served
