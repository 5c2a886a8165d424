// A served model's reply body (--verifier llm:URL or tei:URL, --cross-encoder tei:URL, --encoder
// tei:URL, the answer writer): read as the HTTP transport reads a 200 reply, then given, through a
// transport that answers every request with it, to the chat exchange and to TEI's three routes, and
// a chat reply's content read as the LLM judge reads its answer.
#include <string>
#include <vector>

#include "claimrag/served/chat.hpp"
#include "claimrag/served/http_transport.hpp"
#include "claimrag/served/tei.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"
#include "fuzz_target.hpp"

namespace {

namespace served = claimrag::served;

/// Answers every request with one reply, checked as the HTTP transport checks it.
class OneReplyTransport final : public served::Transport {
 public:
  explicit OneReplyTransport(nlohmann::json body) : body_(std::move(body)) {}
  [[nodiscard]] std::vector<served::JsonReply> exchange(std::span<const served::JsonRequest> requests,
                                                        const served::ReplyCheck& check) override {
    std::vector<served::JsonReply> replies;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      std::string why = check(body_);
      replies.push_back(why.empty() ? served::JsonReply{body_, "", 200} : served::JsonReply{nullptr, std::move(why), 200});
    }
    return replies;
  }
  [[nodiscard]] const std::string& url() const override { return url_; }

 private:
  nlohmann::json body_;
  std::string url_ = "http://127.0.0.1:8080";
};

void read_judge_answer(const std::string& content) {
  claimrag::verification::EvidenceDocument document;
  document.doc_id = "d1";
  document.sentences = {"Aspirin lowers stroke risk.", "It was tested in 2,000 adults.", "Bleeding rose."};
  (void)claimrag::verification::read_judge_answer(content, "Aspirin lowers stroke risk.", document, {});
}

template <class Call>
void each_route(Call&& call) {
  claimrag::fuzz::expect_result_or_refusal(call);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)claimrag::fuzz::scratch_folder();  // silences the logger
  const std::string bytes(claimrag::fuzz::as_text(data, size));
  std::size_t depth = 0;
  auto reply = served::read_reply_body(std::string(bytes), 200, depth);
  if (reply.ok()) {
    OneReplyTransport transport(std::move(reply.body));
    const std::vector<served::TeiPair> pairs = {{"Aspirin lowers stroke risk.", "Aspirin helps."}, {"a", "b"}};
    const std::vector<served::TeiRerankQuery> queries = {{"aspirin", {"Aspirin lowers stroke risk.", "Sleep."}}};
    const std::vector<std::string> texts = {"aspirin", "stroke"};
    each_route([&] { (void)served::tei_predict(transport, pairs, 32); });
    each_route([&] { (void)served::tei_rerank(transport, queries, 32); });
    each_route([&] { (void)served::tei_embed(transport, texts, 32); });
    each_route([&] {
      const std::vector<served::JsonRequest> requests = {served::chat_request("Judge.", {.model = "judge"})};
      for (const auto& answer : served::exchange_chat(transport, requests)) {
        if (answer.ok()) read_judge_answer(served::chat_content(answer.body));
      }
    });
  }
  // The bytes as a model's answer too, without the JSON around it.
  each_route([&] { read_judge_answer(bytes); });
  return 0;
}
