// The chat-completions API as every chat backend uses it: the request body, reading replies and
// refusals, the fallback for servers without JSON-schema support, and JSON in a model's text.

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>

#include "../support/fake_http_server.hpp"
#include "claimrag/error.hpp"
#include "claimrag/served/chat.hpp"
#include "claimrag/served/http_transport.hpp"

namespace cs = claimrag::served;
using nlohmann::json;

namespace {

json completion(const json& message) { return json{{"choices", json::array({{{"index", 0}, {"message", message}}})}}; }

}  // namespace

TEST(ServedChat, TheRequestCarriesModelPromptTemperatureNoStreamAndTheSchema) {
  cs::ChatOptions options{.model = "judge-1", .temperature = 0.0};
  const auto plain = cs::chat_request("Is it?", options);
  EXPECT_EQ(plain.path, "/chat/completions");
  EXPECT_EQ(plain.body["model"], "judge-1");
  EXPECT_EQ(plain.body["messages"], json::parse(R"([{"role":"user","content":"Is it?"}])"));
  EXPECT_EQ(plain.body["temperature"], 0.0);
  EXPECT_EQ(plain.body["stream"], false);
  EXPECT_FALSE(plain.body.contains("response_format"));
  EXPECT_FALSE(plain.body.contains("max_tokens"));

  options.max_tokens = 64;
  options.json_schema = json{{"type", "object"}};
  options.schema_name = "verdict";
  const auto structured = cs::chat_request("Is it?", options);
  EXPECT_EQ(structured.body["max_tokens"], 64);
  EXPECT_EQ(structured.body["response_format"],
            json::parse(R"({"type":"json_schema","json_schema":{"name":"verdict","strict":true,"schema":{"type":"object"}}})"));
  EXPECT_THROW((void)cs::chat_request("x", cs::ChatOptions{}), claimrag::UsageError);
}

TEST(ServedChat, RepliesWithoutContentOrWithARefusalAreNotAnswers) {
  EXPECT_EQ(cs::check_chat_reply(completion({{"role", "assistant"}, {"content", "yes"}})), "");
  EXPECT_EQ(cs::chat_content(completion({{"role", "assistant"}, {"content", "yes"}})), "yes");
  EXPECT_EQ(cs::check_chat_reply(completion({{"content", "yes"}, {"refusal", nullptr}})), "");
  EXPECT_EQ(cs::check_chat_reply(completion({{"content", nullptr}, {"refusal", "I can't help with that."}})),
            "the model refused: I can't help with that.");
  EXPECT_EQ(cs::check_chat_reply(completion({{"content", nullptr}})), "the reply has no choices[0].message.content");
  EXPECT_EQ(cs::check_chat_reply(json{{"choices", json::array()}}), "the reply has no choices[0].message");
  EXPECT_EQ(cs::check_chat_reply(json::parse(R"({"error": {"message": "overloaded"}})")), "the reply has no choices[0].message");
  EXPECT_EQ(cs::check_chat_reply(json::array()), "the reply has no choices[0].message");
  EXPECT_THROW((void)cs::chat_content(json::object()), claimrag::InternalError);
}

TEST(ServedChat, AServerWithoutJsonSchemaSupportIsAskedAgainWithoutIt) {
  std::atomic<int> with_schema{0};
  std::atomic<int> without{0};
  claimrag::testing::FakeHttpServer server("/v1/chat/completions", [&](const httplib::Request& request, httplib::Response& response) {
    const auto body = json::parse(request.body);
    if (body.contains("response_format")) {
      ++with_schema;
      response.status = 400;
      response.set_content(R"({"error":"response_format not supported"})", "application/json");
      return;
    }
    ++without;
    response.set_content(completion({{"content", "Answer: SUPPORT"}}).dump(), "application/json");
  });
  cs::EndpointOptions endpoint;
  endpoint.url = server.url("/v1");
  endpoint.retries = 3;
  endpoint.backoff_seconds = 0.01;
  cs::HttpTransport transport(endpoint);
  cs::ChatOptions options{.model = "m", .json_schema = json{{"type", "object"}}};
  const std::vector<cs::JsonRequest> requests{cs::chat_request("a", options), cs::chat_request("b", options)};
  const auto replies = cs::exchange_chat(transport, requests);
  EXPECT_EQ(with_schema.load(), 2);  // a 400 is not retried
  EXPECT_EQ(without.load(), 2);
  ASSERT_TRUE(replies[0].ok());
  EXPECT_EQ(cs::chat_content(replies[1].body), "Answer: SUPPORT");
}

TEST(ServedChat, OtherFailuresAreNotAskedAgainWithoutTheSchema) {
  std::atomic<int> calls{0};
  claimrag::testing::FakeHttpServer server("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& response) {
    ++calls;
    response.status = 401;
  });
  cs::EndpointOptions endpoint;
  endpoint.url = server.url("/v1");
  cs::HttpTransport transport(endpoint);
  const std::vector<cs::JsonRequest> requests{cs::chat_request("a", {.model = "m", .json_schema = json::object()})};
  const auto replies = cs::exchange_chat(transport, requests);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(replies[0].status, 401);
}

TEST(ServedChat, JsonIsFoundWholeFencedOrEmbedded) {
  EXPECT_EQ(*cs::json_in_content(R"({"label": "SUPPORT"})"), json({{"label", "SUPPORT"}}));
  EXPECT_EQ(*cs::json_in_content("  {\"label\":\"X\"}\n"), json({{"label", "X"}}));
  EXPECT_EQ(*cs::json_in_content("Sure.\n```json\n{\"label\": \"CONTRADICT\", \"sentences\": [2]}\n```\nDone."),
            json::parse(R"({"label": "CONTRADICT", "sentences": [2]})"));
  EXPECT_EQ(*cs::json_in_content("```\n{\"a\": 1}\n```"), json({{"a", 1}}));
  // A brace inside a string does not end the object; an unparsable first candidate is skipped.
  EXPECT_EQ(*cs::json_in_content(R"(I think {label: bad} so {"label": "x}y", "n": {"m": 1}} ok)"),
            json::parse(R"({"label": "x}y", "n": {"m": 1}})"));
  EXPECT_FALSE(cs::json_in_content("The evidence supports the claim.").has_value());
  EXPECT_FALSE(cs::json_in_content("[1, 2]").has_value());
  EXPECT_FALSE(cs::json_in_content("{\"unclosed\": 1").has_value());
  EXPECT_FALSE(cs::json_in_content("").has_value());
}
