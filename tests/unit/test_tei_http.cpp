// Text Embeddings Inference's three routes over HTTP against a fake server on 127.0.0.1 (answered
// by the committed tiny checkpoints): right answers, labels in another order and unknown ones,
// malformed bodies, refused and overloaded requests, a slow reply, and a verifier recorded then
// replayed offline through the verifier factory. Every wait is bounded by short timeouts.

#include <gtest/gtest.h>

#include <cmath>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/tei.hpp"
#include "claimrag/verification/tei_verifier.hpp"
#include "pretrained_fixture.hpp"
#include "support/fake_tei.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::served {
namespace {

using nlohmann::json;
using testing::FakeTeiServer;
namespace cv = claimrag::verification;

EndpointOptions quick(const FakeTeiServer& server) {
  EndpointOptions options;
  options.url = server.url();
  options.timeout_seconds = 2.0;
  options.deadline_seconds = 3.0;
  options.retries = 2;
  options.backoff_seconds = 0.01;
  options.concurrency = 2;
  return options;
}

std::shared_ptr<const cv::NliCheckpoint> nli() {
  static const auto checkpoint = std::make_shared<const cv::NliCheckpoint>(testing::fixture_checkpoint("bert-classifier"));
  return checkpoint;
}

FakeTeiServer::Answer predicting() {
  return [](const std::string&, const json& body) { return testing::predict_with_checkpoint(*nli(), body); };
}

const std::vector<cv::VerificationInput>& inputs() {
  static const std::vector<cv::VerificationInput> claims{
      {"c1", "the cat sat", {{"d1", "t", {"the cat sat on a mat", "a dog ran", "nothing here"}}}},
      {"c2", "dogs run fast", {{"d2", "t", {"a dog ran", "the cat sat"}}}}};
  return claims;
}

TEST(TeiHttp, PredictOverHttpGivesTheCheckpointVerifiersVerdicts) {
  FakeTeiServer server(predicting());
  const cv::CheckpointRule rule{cv::PremiseUnit::sentence, 0.34, 2};
  const auto served = cv::make_tei_verifier(std::make_shared<HttpTransport>(quick(server)), {rule, 2})->verify(inputs());
  const auto local = cv::make_checkpoint_verifier(nli(), {rule, 0, 4})->verify(inputs());
  ASSERT_EQ(served.size(), local.size());
  for (std::size_t c = 0; c < local.size(); ++c) {
    EXPECT_EQ(served[c].documents.at(0).label, local[c].documents.at(0).label);
    EXPECT_EQ(served[c].documents.at(0).probabilities, local[c].documents.at(0).probabilities);
    EXPECT_EQ(served[c].documents.at(0).rationale, local[c].documents.at(0).rationale);
  }
  // Five pairs in requests of at most two: 2 + 1 for c1, 2 for c2.
  std::size_t pairs = 0;
  for (const auto& body : server.received()) {
    EXPECT_LE(body["inputs"].size(), 2U);
    pairs += body["inputs"].size();
  }
  EXPECT_EQ(pairs, 5U);
}

TEST(TeiHttp, UnknownLabelsAreADataErrorNamingTheUrl) {
  FakeTeiServer server([](const std::string&, const json& body) {
    json reply = json::array();
    for (std::size_t i = 0; i < body["inputs"].size(); ++i) {
      reply.push_back({{{"label", "LABEL_1"}, {"score", 0.6}}, {{"label", "LABEL_0"}, {"score", 0.4}}});
    }
    return reply;
  });
  const auto verifier = cv::make_tei_verifier(std::make_shared<HttpTransport>(quick(server)), {});
  const std::string message = testing::data_error_of([&] { (void)verifier->verify(inputs()); });
  EXPECT_NE(message.find(server.url()), std::string::npos) << message;
  EXPECT_NE(message.find("'LABEL_1', 'LABEL_0'"), std::string::npos) << message;
}

TEST(TeiHttp, ScoresOutsideZeroToOneAreADataErrorNamingTheUrl) {
  FakeTeiServer predict([](const std::string&, const json& body) {
    json reply = json::array();
    for (std::size_t i = 0; i < body["inputs"].size(); ++i) {
      reply.push_back({{{"label", "entailment"}, {"score", 1.5}}, {{"label", "neutral"}, {"score", -0.5}}});
    }
    return reply;
  });
  HttpTransport to_predict(quick(predict));
  const std::vector<TeiPair> pairs{{"a dog ran", "dogs run"}};
  const std::string message = testing::data_error_of([&] { (void)tei_predict(to_predict, pairs, 32); });
  EXPECT_NE(message.find(predict.url()), std::string::npos) << message;
  EXPECT_NE(message.find("outside [0, 1]"), std::string::npos) << message;

  FakeTeiServer rerank([](const std::string&, const json&) { return json::parse(R"([{"index": 0, "score": 7.25}])"); });
  HttpTransport to_rerank(quick(rerank));
  const std::vector<TeiRerankQuery> queries{{"q", {"t"}}};
  const std::string reranked = testing::data_error_of([&] { (void)tei_rerank(to_rerank, queries, 32); });
  EXPECT_NE(reranked.find(rerank.url()), std::string::npos) << reranked;
  EXPECT_NE(reranked.find("7.25 is outside [0, 1]"), std::string::npos) << reranked;
}

TEST(TeiHttp, ABatchOfLargeEmbeddingsFitsTheDefaultReplyCap) {
  // 32 texts of a 4,096-dimension model: about 2.6 MB of JSON, over the 1 MiB default cap.
  FakeTeiServer server([](const std::string&, const json& body) {
    json reply = json::array();
    for (std::size_t i = 0; i < body["inputs"].size(); ++i) reply.push_back(std::vector<double>(4096, -0.012345678901234567));
    return reply;
  });
  HttpTransport transport(quick(server));
  const std::vector<std::string> texts(32, "a text");
  const auto vectors = tei_embed(transport, texts, 32);
  ASSERT_EQ(vectors.size(), 32U);
  EXPECT_EQ(vectors.front().size(), 4096U);
}

TEST(TeiHttp, AMalformedBodyIsRetriedThenADataError) {
  FakeTeiServer server(predicting());
  for (int i = 0; i < 3; ++i) server.queue({200, "<html>502 bad gateway</html>", 0.0});
  HttpTransport transport(quick(server));
  const std::vector<TeiPair> pairs{{"a dog ran", "dogs run"}};
  const std::string message = testing::data_error_of([&] { (void)tei_predict(transport, pairs, 32); });
  EXPECT_NE(message.find(server.url() + ": POST /predict failed"), std::string::npos) << message;
  EXPECT_EQ(server.received().size(), 3U);  // the first attempt and two retries
}

TEST(TeiHttp, ASlowReplyFailsAtTheDeadline) {
  FakeTeiServer server(predicting());
  server.queue({200, "[[1.0]]", 1.0});
  auto options = quick(server);
  options.deadline_seconds = 0.3;
  options.timeout_seconds = 0.3;
  options.retries = 0;
  HttpTransport transport(options);
  const std::vector<std::string> texts{"a"};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(testing::data_error_of([&] { (void)tei_embed(transport, texts, 32); }).find("POST /embed failed"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

// One call of each route against `server`, with a hand-made answer for each.
struct RouteCall {
  std::string route;
  std::function<void(HttpTransport&)> call;
};

std::vector<RouteCall> one_call_per_route() {
  return {{"/predict", [](HttpTransport& t) { (void)tei_predict(t, std::vector<TeiPair>{{"p", "c"}}, 32); }},
          {"/rerank", [](HttpTransport& t) { (void)tei_rerank(t, std::vector<TeiRerankQuery>{{"q", {"t"}}}, 32); }},
          {"/embed", [](HttpTransport& t) { (void)tei_embed(t, std::vector<std::string>{"t"}, 32); }}};
}

json hand_made_answer(const std::string& path, const json&) {
  if (path == "/predict") return json::parse(R"([[{"label": "entailment", "score": 1.0}, {"label": "not_entailment", "score": 0.0}]])");
  if (path == "/rerank") return json::parse(R"([{"index": 0, "score": 0.5}])");
  return json::parse("[[0.5, 0.5]]");
}

TEST(TeiHttp, EveryRouteRetriesOverloadRefusesATooLargeRequestAndAnotherShape) {
  for (const auto& [route, call] : one_call_per_route()) {
    SCOPED_TRACE(route);
    {
      FakeTeiServer server(hand_made_answer);
      server.queue({503, R"({"error": "unhealthy"})", 0.0});
      server.queue({429, R"({"error": "Model is overloaded"})", 0.0});
      HttpTransport transport(quick(server));
      EXPECT_NO_THROW(call(transport));
      EXPECT_EQ(server.received().size(), 3U);
    }
    {
      FakeTeiServer server(hand_made_answer);
      server.queue({413, R"({"error": "batch size 33 > maximum allowed batch size 32"})", 0.0});
      HttpTransport transport(quick(server));
      const std::string message = testing::data_error_of([&] { call(transport); });
      EXPECT_NE(message.find("POST " + route + " failed"), std::string::npos) << message;
      EXPECT_NE(message.find("413"), std::string::npos) << message;
      EXPECT_EQ(server.received().size(), 1U);
    }
    {
      // Another API's answer (OpenAI's embeddings shape): asking again would get the same shape.
      FakeTeiServer server([](const std::string&, const json&) { return json::parse(R"({"data": [{"embedding": [0.5]}]})"); });
      HttpTransport transport(quick(server));
      const std::string message = testing::data_error_of([&] { call(transport); });
      EXPECT_NE(message.find(server.url() + ": POST " + route + " failed"), std::string::npos) << message;
      EXPECT_EQ(server.received().size(), 1U);
    }
  }
}

TEST(TeiHttp, RerankAndEmbedGiveTheCheckpointsOwnNumbers) {
  const pretrained::TextModel reranker(testing::fixture_checkpoint("bert-reranker-f16"));
  const pretrained::TextModel embedder(testing::fixture_checkpoint("bert-embedding-sharded"));
  FakeTeiServer server([&](const std::string& path, const json& body) {
    return path == "/rerank" ? testing::rerank_with_checkpoint(reranker, body) : testing::embed_with_checkpoint(embedder, body);
  });
  HttpTransport transport(quick(server));
  const std::vector<TeiRerankQuery> queries{{"aspirin lowers risk", {"aspirin reduces heart attacks", "sleep and memory", "dogs"}}};
  const auto scores = tei_rerank(transport, queries, 2);
  const std::vector<pretrained::TextInput> pairs{{queries[0].query, queries[0].texts[0]},
                                                 {queries[0].query, queries[0].texts[1]},
                                                 {queries[0].query, queries[0].texts[2]}};
  const auto logits = reranker.run(pairs, 0, 4, "test");
  ASSERT_EQ(scores.at(0).size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(scores[0][i], 1.0 / (1.0 + std::exp(-static_cast<double>(logits.values[i][0]))));

  const std::vector<std::string> texts{"aspirin", "sleep deprivation", "dogs run"};
  const auto vectors = tei_embed(transport, texts, 2);
  const std::vector<pretrained::TextInput> singles{{texts[0], std::nullopt}, {texts[1], std::nullopt}, {texts[2], std::nullopt}};
  EXPECT_EQ(vectors, embedder.run(singles, 0, 4, "test").values);
}

TEST(TeiHttp, AVerifierRecordedThroughTheFactoryReplaysOfflineAndRefusesWhatItLacks) {
  testing::TempFolder folder;
  experiment::ExperimentConfig config;
  config.verification.checkpoint.threshold = 0.34;
  config.verification.checkpoint.batch_size = 2;
  experiment::VerifierSource source;
  std::vector<cv::ClaimVerdict> live;
  {
    FakeTeiServer server(predicting());
    source.spec = "tei:" + server.url();
    source.served.endpoint = quick(server);
    source.served.record = folder.path() / "verdicts.recording.jsonl";
    source.record_beside = folder.path() / "verdicts.jsonl";
    live = experiment::open_verifier(source, config)->verify(inputs());
  }  // the server is gone
  const auto meta = json::parse(io::read_file(folder.path() / "verdicts.meta.json"));
  EXPECT_EQ(meta["verifier"]["spec"], source.spec);
  EXPECT_EQ(meta["verifier"]["rule"]["threshold"], 0.34);
  EXPECT_EQ(meta["verifier"]["batch_size"], 2);
  source.served.replay = source.served.record;
  source.served.record.clear();
  source.record_beside.clear();
  const auto replayed = experiment::open_verifier(source, config)->verify(inputs());
  ASSERT_EQ(replayed.size(), live.size());
  for (std::size_t c = 0; c < live.size(); ++c) {
    EXPECT_EQ(replayed[c].documents.at(0).probabilities, live[c].documents.at(0).probabilities);
    EXPECT_EQ(replayed[c].documents.at(0).rationale, live[c].documents.at(0).rationale);
  }
  auto other = inputs();
  other[1].claim = "cats run slowly";
  EXPECT_THROW((void)experiment::open_verifier(source, config)->verify(other), DataError);
}

}  // namespace
}  // namespace claimrag::served
