// Text Embeddings Inference's requests, the shape checks of its replies, batching within the
// request limit, and failures, through an in-process transport (no HTTP: test_tei_http.cpp).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/served/tei.hpp"
#include "support/fake_tei.hpp"

namespace claimrag::served {
namespace {

using nlohmann::json;
using testing::InProcessTransport;

TEST(TeiRequests, BodiesAreTeisWithTruncationOnAndRawScoresOff) {
  const std::vector<TeiPair> pairs{{"premise one", "claim"}, {"premise two", "claim"}};
  const auto predict = tei_predict_request(pairs);
  EXPECT_EQ(predict.path, "/predict");
  EXPECT_EQ(predict.body, json::parse(R"({"inputs": [["premise one", "claim"], ["premise two", "claim"]],
                                          "raw_scores": false, "truncate": true})"));
  const std::vector<std::string> texts{"a", "b"};
  const auto rerank = tei_rerank_request("q", texts);
  EXPECT_EQ(rerank.path, "/rerank");
  EXPECT_EQ(rerank.body, json::parse(R"({"query": "q", "texts": ["a", "b"], "raw_scores": false, "truncate": true,
                                         "return_text": false})"));
  const auto embed = tei_embed_request(texts);
  EXPECT_EQ(embed.path, "/embed");
  EXPECT_EQ(embed.body, json::parse(R"({"inputs": ["a", "b"], "truncate": true})"));
}

TEST(TeiRequests, SpecNamesAUrlOnlyWithTheTeiPrefix) {
  EXPECT_EQ(tei_url_of("tei:http://127.0.0.1:8081"), "http://127.0.0.1:8081");
  EXPECT_EQ(tei_url_of("tei:https://h/x"), "https://h/x");
  EXPECT_EQ(tei_url_of("models/bge"), "");
  EXPECT_EQ(tei_url_of(""), "");
  EXPECT_THROW((void)tei_url_of("tei:127.0.0.1:8081"), UsageError);
}

TEST(TeiReplyChecks, PredictNeedsOneLabelArrayPerInputWithNamesAndFiniteScores) {
  EXPECT_EQ(check_tei_predict_reply(json::parse(R"([[{"label": "a", "score": 0.5}], [{"label": "b", "score": 1}]])"), 2), "");
  EXPECT_NE(check_tei_predict_reply(json::parse(R"([[{"label": "a", "score": 0.5}]])"), 2), "");  // one for two
  EXPECT_NE(check_tei_predict_reply(json::parse(R"({"error": "overloaded"})"), 1), "");
  EXPECT_NE(check_tei_predict_reply(json::parse(R"([[]])"), 1), "");
  EXPECT_NE(check_tei_predict_reply(json::parse(R"([[{"score": 0.5}]])"), 1), "");
  EXPECT_NE(check_tei_predict_reply(json::parse(R"([[{"label": "a", "score": "0.5"}]])"), 1), "");
  json infinite = json::parse(R"([[{"label": "a", "score": 0}]])");
  infinite[0][0]["score"] = std::numeric_limits<double>::infinity();
  EXPECT_NE(check_tei_predict_reply(infinite, 1), "");
}

TEST(TeiReplyChecks, RerankNeedsEachIndexOnceWithAFiniteScore) {
  EXPECT_EQ(check_tei_rerank_reply(json::parse(R"([{"index": 1, "score": 0.9}, {"index": 0, "score": 0.1}])"), 2), "");
  EXPECT_NE(check_tei_rerank_reply(json::parse(R"([{"index": 1, "score": 0.9}, {"index": 1, "score": 0.1}])"), 2), "");
  EXPECT_NE(check_tei_rerank_reply(json::parse(R"([{"index": 2, "score": 0.9}, {"index": 0, "score": 0.1}])"), 2), "");
  EXPECT_NE(check_tei_rerank_reply(json::parse(R"([{"index": -1, "score": 0.9}])"), 1), "");
  EXPECT_NE(check_tei_rerank_reply(json::parse(R"([{"index": 0}])"), 1), "");
  EXPECT_NE(check_tei_rerank_reply(json::parse(R"([{"index": 0, "score": 0.5}])"), 2), "");
}

TEST(TeiReplyChecks, EmbedNeedsOneVectorPerInputOfOneDimension) {
  EXPECT_EQ(check_tei_embed_reply(json::parse("[[1, 2], [3, 4.5]]"), 2), "");
  EXPECT_NE(check_tei_embed_reply(json::parse("[[1, 2], [3]]"), 2), "");
  EXPECT_NE(check_tei_embed_reply(json::parse("[[1, 2]]"), 2), "");
  EXPECT_NE(check_tei_embed_reply(json::parse("[[]]"), 1), "");
  EXPECT_NE(check_tei_embed_reply(json::parse(R"([["1"]])"), 1), "");
  EXPECT_NE(check_tei_embed_reply(json::parse(R"({"embeddings": [[1]]})"), 1), "");
}

TEST(TeiBatching, PredictSplitsIntoRequestsOfAtMostTheBatchSizeAndKeepsInputOrder) {
  // Each pair's answer carries its premise's number, in tenths, as the score of "entailment" (and
  // the rest of the distribution as "neutral").
  InProcessTransport transport([](const JsonRequest& request) {
    json reply = json::array();
    for (const auto& pair : request.body["inputs"]) {
      const double entailment = std::stod(pair[0].get<std::string>()) / 10.0;
      reply.push_back({{{"label", "neutral"}, {"score", 1.0 - entailment}}, {{"label", "entailment"}, {"score", entailment}}});
    }
    return JsonReply{reply, "", 200};
  });
  std::vector<TeiPair> pairs;
  for (int i = 0; i < 5; ++i) pairs.emplace_back(std::to_string(i), "c");
  const auto scores = tei_predict(transport, pairs, 2);
  ASSERT_EQ(transport.sent.size(), 3U);
  EXPECT_EQ(transport.sent[0].body["inputs"].size(), 2U);
  EXPECT_EQ(transport.sent[1].body["inputs"].size(), 2U);
  EXPECT_EQ(transport.sent[2].body["inputs"].size(), 1U);
  ASSERT_EQ(scores.size(), 5U);
  for (std::size_t i = 0; i < 5; ++i) {
    ASSERT_EQ(scores[i].size(), 2U);
    EXPECT_EQ(scores[i][1].label, "entailment");
    EXPECT_EQ(scores[i][1].score, static_cast<double>(i) / 10.0);
  }
  EXPECT_THROW((void)tei_predict(transport, pairs, 0), UsageError);
  EXPECT_TRUE(tei_predict(transport, std::span<const TeiPair>(), 2).empty());
}

TEST(TeiBatching, RerankMapsScoresBackByIndexAcrossTheRequestsOfAQuery) {
  // Scores are the text's value, replied best first (reverse order of the texts sent).
  InProcessTransport transport([](const JsonRequest& request) {
    json reply = json::array();
    const auto& texts = request.body["texts"];
    for (std::size_t i = texts.size(); i-- > 0;) reply.push_back({{"index", i}, {"score", std::stod(texts[i].get<std::string>())}});
    return JsonReply{reply, "", 200};
  });
  const std::vector<TeiRerankQuery> queries{{"q1", {"0.1", "0.7", "0.3"}}, {"q2", {}}, {"q3", {"0.9"}}};
  const auto scores = tei_rerank(transport, queries, 2);
  ASSERT_EQ(transport.sent.size(), 3U);  // q1: [0, 1] and [2]; q2 nothing; q3: [0]
  EXPECT_EQ(transport.sent[1].body["texts"], json::parse(R"(["0.3"])"));
  EXPECT_EQ(transport.sent[2].body["query"], "q3");
  EXPECT_EQ(scores, (std::vector<std::vector<double>>{{0.1, 0.7, 0.3}, {}, {0.9}}));
}

TEST(TeiBatching, EmbedKeepsInputOrderAcrossRequests) {
  InProcessTransport transport([](const JsonRequest& request) {
    json reply = json::array();
    for (const auto& text : request.body["inputs"]) reply.push_back({std::stod(text.get<std::string>()), 1.0});
    return JsonReply{reply, "", 200};
  });
  const std::vector<std::string> texts{"1", "2", "3"};
  EXPECT_EQ(tei_embed(transport, texts, 2), (std::vector<std::vector<float>>{{1, 1}, {2, 1}, {3, 1}}));
  EXPECT_EQ(transport.sent.size(), 2U);
}

TEST(TeiBatching, EmbeddingsOfAnotherDimensionInALaterRequestAreAnError) {
  InProcessTransport transport([](const JsonRequest& request) {
    json reply = json::array();
    for (std::size_t i = 0; i < request.body["inputs"].size(); ++i) {
      reply.push_back(request.body["inputs"][0] == "3" ? json{1.0, 2.0, 3.0} : json{1.0, 2.0});
    }
    return JsonReply{reply, "", 200};
  });
  const std::vector<std::string> texts{"1", "2", "3"};
  const std::string message = testing::data_error_of([&] { (void)tei_embed(transport, texts, 2); });
  EXPECT_NE(message.find("http://tei.test:8081"), std::string::npos) << message;
  EXPECT_NE(message.find("dimension (2 and 3)"), std::string::npos) << message;
}

TEST(TeiFailures, AFailedRequestIsADataErrorNamingTheUrlRouteAndReason) {
  InProcessTransport transport([](const JsonRequest&) { return JsonReply{nullptr, "HTTP status 503: overloaded", 503}; });
  const std::vector<std::string> texts{"a"};
  const std::string message = testing::data_error_of([&] { (void)tei_embed(transport, texts, 4); });
  EXPECT_EQ(message, "http://tei.test:8081: POST /embed failed: HTTP status 503: overloaded");
  EXPECT_THROW((void)tei_embed(transport, texts, 4), DataError);
}

TEST(TeiFailures, AReplyOfAnotherShapeOrCountIsADataError) {
  InProcessTransport html([](const JsonRequest&) { return JsonReply{"<html>bad gateway</html>", "", 200}; });
  const std::vector<TeiPair> pairs{{"p", "c"}, {"q", "c"}};
  EXPECT_NE(testing::data_error_of([&] { (void)tei_predict(html, pairs, 4); }).find("POST /predict failed: the reply is not an array"),
            std::string::npos);
  // A well-formed reply for one input when two were sent: the shape passes, the count does not.
  InProcessTransport short_reply([](const JsonRequest&) { return JsonReply{json::parse(R"([[{"label": "a", "score": 1}]])"), "", 200}; });
  const std::string message = testing::data_error_of([&] { (void)tei_predict(short_reply, pairs, 4); });
  EXPECT_NE(message.find("holds 1 predictions for 2 inputs"), std::string::npos) << message;
}

TEST(TeiFailures, APredictRequestWithoutAnAcceptedReplyFailsItsOwnPairsOnly) {
  // Requests of two pairs: the second request's scores (1, 1, 1) are not a distribution.
  InProcessTransport transport([](const JsonRequest& request) {
    const bool refused = request.body["inputs"][0][0] == "p2";
    const json labels = refused ? json::parse(R"([{"label": "a", "score": 1}, {"label": "b", "score": 1}, {"label": "c", "score": 1}])")
                                : json::parse(R"([{"label": "a", "score": 0.25}, {"label": "b", "score": 0.75}])");
    return JsonReply{json::array({labels, labels}), "", 200};
  });
  const std::vector<TeiPair> pairs{{"p0", "c"}, {"p1", "c"}, {"p2", "c"}, {"p3", "c"}, {"p4", "c"}};
  const auto predictions = tei_predict_each(transport, pairs, 2);
  ASSERT_EQ(predictions.size(), 5U);
  for (const std::size_t i : {0U, 1U}) {
    EXPECT_EQ(predictions[i].failure, "");
    ASSERT_EQ(predictions[i].scores.size(), 2U);
    EXPECT_EQ(predictions[i].scores[1].label, "b");
    EXPECT_EQ(predictions[i].scores[1].score, 0.75);
  }
  for (const std::size_t i : {2U, 3U}) {
    EXPECT_TRUE(predictions[i].scores.empty());
    EXPECT_EQ(predictions[i].failure,
              "http://tei.test:8081: POST /predict failed: prediction 0's scores sum to 3.0, not 1 (within 0.001): not a "
              "probability distribution");
  }
  // The last request holds one pair and got two predictions: its count is refused.
  EXPECT_NE(predictions[4].failure.find("holds 2 predictions for 1 inputs"), std::string::npos) << predictions[4].failure;
  // tei_predict stops at the first failure, with the same reason.
  EXPECT_EQ(testing::data_error_of([&] { (void)tei_predict(transport, pairs, 2); }), predictions[2].failure);
}

}  // namespace
}  // namespace claimrag::served
