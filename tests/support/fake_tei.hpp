#pragma once
// A fake Text Embeddings Inference server for tests: /predict, /rerank and /embed on an ephemeral
// port of 127.0.0.1, answered in process by the committed tiny checkpoints (so a served run can be
// compared with the same checkpoint read from its folder), with faults to inject per call; and a
// transport answering in process, for tests of what is sent and read without HTTP.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "claimrag/error.hpp"
#include "claimrag/pretrained/text_model.hpp"
#include "claimrag/served/exchange.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
// After Eigen (through the headers above): httplib brings <resolv.h>, whose `_res` macro breaks
// Eigen's headers when they come later.
#include "support/fake_http_server.hpp"

namespace claimrag::testing {

/// The message of the DataError `call` throws, "(no DataError)" when it throws none.
inline std::string data_error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const DataError& error) {
    return error.what();
  }
  return "(no DataError)";
}

/// /predict as TEI answers it, computed by `checkpoint`: per pair, every label of config.json with
/// its probability, listed from the last id to the first (so that a reader going by position
/// would read them wrong).
inline nlohmann::json predict_with_checkpoint(const verification::NliCheckpoint& checkpoint, const nlohmann::json& body) {
  std::vector<std::string> texts;
  for (const auto& pair : body.at("inputs")) texts.push_back(pair.at(0)), texts.push_back(pair.at(1));
  std::vector<pretrained::TextInput> pairs;
  for (std::size_t i = 0; i < texts.size(); i += 2) pairs.push_back({texts[i], texts[i + 1]});
  std::vector<std::size_t> truncated;
  const auto distributions = checkpoint.judge(pairs, {{}, 0, 8}, truncated);
  const auto& names = checkpoint.text_model().model().config().labels;
  nlohmann::json reply = nlohmann::json::array();
  for (const auto& distribution : distributions) {
    nlohmann::json labels = nlohmann::json::array();
    for (std::size_t id = names.size(); id-- > 0;) {
      labels.push_back({{"label", names[id]}, {"score", distribution[static_cast<std::size_t>(checkpoint.label_of_id()[id])]}});
    }
    reply.push_back(std::move(labels));
  }
  return reply;
}

/// /rerank as TEI answers it with raw scores off, computed by the one-logit `reranker`: the
/// logistic of each (query, text) logit, best first (ties: lower index first).
inline nlohmann::json rerank_with_checkpoint(const pretrained::TextModel& reranker, const nlohmann::json& body) {
  const std::string query = body.at("query");
  const auto texts = body.at("texts").get<std::vector<std::string>>();
  std::vector<pretrained::TextInput> pairs;
  for (const auto& text : texts) pairs.push_back({query, text});
  const auto outputs = reranker.run(pairs, 0, 8, "fake /rerank");
  std::vector<std::pair<std::size_t, double>> scores;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    scores.emplace_back(i, 1.0 / (1.0 + std::exp(-static_cast<double>(outputs.values[i].front()))));
  }
  std::stable_sort(scores.begin(), scores.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  nlohmann::json reply = nlohmann::json::array();
  for (const auto& [index, score] : scores) reply.push_back({{"index", index}, {"score", score}});
  return reply;
}

/// /embed as TEI answers it, computed by the sentence encoder `embedder`.
inline nlohmann::json embed_with_checkpoint(const pretrained::TextModel& embedder, const nlohmann::json& body) {
  const auto texts = body.at("inputs").get<std::vector<std::string>>();
  std::vector<pretrained::TextInput> inputs;
  for (const auto& text : texts) inputs.push_back({text, std::nullopt});
  return embedder.run(inputs, 0, 8, "fake /embed").values;
}

/// A transport answering in process, without HTTP: each request's reply is `answer(request)`,
/// checked with the caller's check as a live transport does (a refused body is a failed reply).
class InProcessTransport final : public served::Transport {
 public:
  using Answer = std::function<served::JsonReply(const served::JsonRequest&)>;
  explicit InProcessTransport(Answer answer, std::string url = "http://tei.test:8081")
      : answer_(std::move(answer)), url_(std::move(url)) {}
  [[nodiscard]] std::vector<served::JsonReply> exchange(std::span<const served::JsonRequest> requests,
                                                        const served::ReplyCheck& check) override {
    std::vector<served::JsonReply> replies;
    for (const auto& request : requests) {
      sent.push_back(request);
      auto reply = answer_(request);
      if (reply.ok()) {
        if (std::string problem = check(reply.body); !problem.empty()) reply = {nullptr, std::move(problem), 200};
      }
      replies.push_back(std::move(reply));
    }
    return replies;
  }
  [[nodiscard]] const std::string& url() const override { return url_; }
  std::vector<served::JsonRequest> sent;  ///< every request, in order

 private:
  Answer answer_;
  std::string url_;
};

/// The server (on FakeHttpServer). `answer(path, body)` computes a 200 reply's JSON; a queued Fault
/// replaces the next call's reply (after its delay) instead.
class FakeTeiServer {
 public:
  using Answer = std::function<nlohmann::json(const std::string& path, const nlohmann::json& body)>;
  struct Fault {
    int status = 200;
    std::string body;            ///< sent as is (may be no JSON at all)
    double delay_seconds = 0.0;  ///< slept before replying
  };

  explicit FakeTeiServer(Answer answer)
      : answer_(std::move(answer)),
        server_(std::make_unique<FakeHttpServer>(
            "/(predict|rerank|embed)",  // httplib matches the path as a regular expression
            [this](const httplib::Request& request, httplib::Response& response) { handle(request, response); })),
        url_(server_->url()) {}

  /// Stops listening (a later request cannot connect).
  void stop() { server_.reset(); }
  [[nodiscard]] const std::string& url() const { return url_; }
  void queue(Fault fault) {
    std::lock_guard lock(mutex_);
    faults_.push_back(std::move(fault));
  }
  /// Every request body received, in arrival order.
  [[nodiscard]] std::vector<nlohmann::json> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }

 private:
  void handle(const httplib::Request& request, httplib::Response& response) {
    std::optional<Fault> fault;
    nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
    {
      std::lock_guard lock(mutex_);
      received_.push_back(body);
      if (!faults_.empty()) fault = faults_.front(), faults_.pop_front();
    }
    if (fault) {
      std::this_thread::sleep_for(std::chrono::duration<double>(fault->delay_seconds));
      response.status = fault->status;
      response.set_content(fault->body, "application/json");
      return;
    }
    response.set_content(answer_(request.path, body).dump(), "application/json");
  }

  Answer answer_;
  mutable std::mutex mutex_;
  std::deque<Fault> faults_;
  std::vector<nlohmann::json> received_;
  std::unique_ptr<FakeHttpServer> server_;  // last: stopped first, while what its handler uses lives
  std::string url_;
};

}  // namespace claimrag::testing
