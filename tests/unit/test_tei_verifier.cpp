// The verifier over Text Embeddings Inference's /predict: labels mapped by name, and the same
// verdicts as the checkpoint verifier when the server serves the same checkpoint (answered in
// process here; over HTTP in test_tei_http.cpp).

#include <gtest/gtest.h>

#include <array>
#include <map>

#include "claimrag/error.hpp"
#include "claimrag/verification/tei_verifier.hpp"
#include "claimrag/verification/verdict_failures.hpp"
#include "pretrained_fixture.hpp"
#include "support/fake_tei.hpp"

namespace claimrag::verification {
namespace {

constexpr auto S = Label::support;
constexpr auto C = Label::contradict;
constexpr auto N = Label::not_enough_info;

using nlohmann::json;

std::shared_ptr<testing::InProcessTransport> transport_serving(std::shared_ptr<const NliCheckpoint> checkpoint) {
  return std::make_shared<testing::InProcessTransport>([checkpoint](const served::JsonRequest& request) {
    return served::JsonReply{testing::predict_with_checkpoint(*checkpoint, request.body), "", 200};
  });
}

std::vector<VerificationInput> hand_made_inputs() {
  return {{"c1", "the cat sat", {{"d1", "t", {"the cat sat on a mat", "a dog ran", "nothing here"}}, {"d2", "t", {"cats sit"}}}},
          {"c2", "dogs run fast", {{"d3", "t", {"a dog ran", "the cat sat"}}}},
          {"c3", "no documents", {}}};
}

void expect_same_verdicts(const std::vector<ClaimVerdict>& served, const std::vector<ClaimVerdict>& local) {
  ASSERT_EQ(served.size(), local.size());
  for (std::size_t c = 0; c < local.size(); ++c) {
    EXPECT_EQ(served[c].claim_id, local[c].claim_id);
    EXPECT_EQ(served[c].reason, local[c].reason);
    ASSERT_EQ(served[c].documents.size(), local[c].documents.size());
    for (std::size_t d = 0; d < local[c].documents.size(); ++d) {
      const auto& a = served[c].documents[d];
      const auto& b = local[c].documents[d];
      EXPECT_EQ(a.doc_id, b.doc_id);
      EXPECT_EQ(a.label, b.label);
      EXPECT_EQ(a.probabilities, b.probabilities);  // the same doubles: JSON round-trips them exactly
      EXPECT_EQ(a.rationale, b.rationale);
      ASSERT_EQ(a.sentence_scores.size(), b.sentence_scores.size());
      for (std::size_t s = 0; s < a.sentence_scores.size(); ++s) EXPECT_EQ(a.sentence_scores[s].score, b.sentence_scores[s].score);
    }
  }
}

TEST(TeiLabels, ScoresMapByNameInWhateverOrderTheServerLists) {
  const auto d = tei_label_distribution({{"NEUTRAL", 0.25}, {"contradiction", 0.125}, {"Entailment", 0.625}}, "http://h");
  EXPECT_EQ(d, (LabelDistribution{0.625, 0.125, 0.25}));
  const auto e = tei_label_distribution({{"entailment", 0.5}, {"neutral", 0.375}, {"contradiction", 0.125}}, "http://h");
  EXPECT_EQ(e, (LabelDistribution{0.5, 0.125, 0.375}));
  // A two-label model: not-entailment's probability goes to NOT_ENOUGH_INFO, CONTRADICT is 0.
  EXPECT_EQ(tei_label_distribution({{"not_entailment", 0.75}, {"entailment", 0.25}}, "http://h"), (LabelDistribution{0.25, 0.0, 0.75}));
}

TEST(TeiLabels, AnUnknownLabelSetIsADataErrorNamingTheUrlAndListingTheLabels) {
  try {
    (void)tei_label_distribution({{"LABEL_0", 0.5}, {"LABEL_1", 0.3}, {"LABEL_2", 0.2}}, "http://127.0.0.1:9/x");
    ADD_FAILURE() << "accepted";
  } catch (const DataError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("http://127.0.0.1:9/x"), std::string::npos) << message;
    for (const char* label : {"'LABEL_0'", "'LABEL_1'", "'LABEL_2'"}) EXPECT_NE(message.find(label), std::string::npos) << message;
  }
}

TEST(TeiVerifier, GivesTheCheckpointVerifiersVerdictsForEachPremiseUnit) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("bert-classifier"));
  const auto inputs = hand_made_inputs();
  for (const auto unit : {PremiseUnit::sentence, PremiseUnit::window, PremiseUnit::abstract}) {
    SCOPED_TRACE(std::string(premise_unit_name(unit)));
    const CheckpointRule rule{unit, 0.34, 2};
    const auto local = make_checkpoint_verifier(checkpoint, {rule, 0, 4})->verify(inputs);
    auto transport = transport_serving(checkpoint);
    const auto served = make_tei_verifier(transport, {rule, 2})->verify(inputs);
    expect_same_verdicts(served, local);
    // Every premise was asked once, the premise first, in requests of at most 2 pairs.
    std::size_t pairs = 0;
    for (const auto& request : transport->sent) {
      EXPECT_EQ(request.path, "/predict");
      EXPECT_LE(request.body["inputs"].size(), 2U);
      pairs += request.body["inputs"].size();
    }
    EXPECT_EQ(pairs, unit == PremiseUnit::abstract ? 3U : 6U);
    EXPECT_EQ(transport->sent.front().body["inputs"][0][1], "the cat sat");
  }
}

TEST(TeiVerifier, TwoLabelModelGivesTheCheckpointVerifiersVerdicts) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("roberta-classifier-bf16"));
  const auto inputs = hand_made_inputs();
  const CheckpointRule rule{PremiseUnit::window, 0.01, 3};
  expect_same_verdicts(make_tei_verifier(transport_serving(checkpoint), {rule, 32})->verify(inputs),
                       make_checkpoint_verifier(checkpoint, {rule, 0, 4})->verify(inputs));
}

TEST(TeiVerifier, HandComputedVerdictFromServedScores) {
  // Sentence 0: entailment 0.7; sentence 1: contradiction 0.8; sentence 2: neutral 0.9.
  auto transport = std::make_shared<testing::InProcessTransport>([](const served::JsonRequest& request) {
    const std::map<std::string, std::array<double, 3>> scores{
        {"s0", {0.7, 0.1, 0.2}}, {"s1", {0.1, 0.8, 0.1}}, {"s2", {0.05, 0.05, 0.9}}};
    json reply = json::array();
    for (const auto& pair : request.body["inputs"]) {
      const auto& p = scores.at(pair[0].get<std::string>());
      reply.push_back({{{"label", "neutral"}, {"score", p[2]}}, {{"label", "entailment"}, {"score", p[0]}},
                       {{"label", "contradiction"}, {"score", p[1]}}});
    }
    return served::JsonReply{reply, "", 200};
  });
  const std::vector<VerificationInput> inputs{{"c", "claim", {{"d", "t", {"s0", "s1", "s2"}}}}};
  const auto verdict = make_tei_verifier(transport, {{PremiseUnit::sentence, 0.5, 3}, 32})->verify(inputs).at(0).documents.at(0);
  EXPECT_EQ(verdict.label, C);  // the most decisive premise is s1 (0.8)
  EXPECT_EQ(verdict.probabilities, (LabelDistribution{0.1, 0.8, 0.1}));
  EXPECT_EQ(verdict.rationale, (std::vector<std::size_t>{1, 0}));  // 0.8, 0.7 ≥ 0.5; s2's 0.05 is not
  EXPECT_EQ(verdict.truncated_sentences, 0U);
  ASSERT_EQ(transport->sent.size(), 1U);
  EXPECT_EQ(transport->sent[0].body["inputs"], json::parse(R"([["s0", "claim"], ["s1", "claim"], ["s2", "claim"]])"));
  const auto strict = make_tei_verifier(transport, {{PremiseUnit::sentence, 0.85, 3}, 32})->verify(inputs).at(0).documents.at(0);
  EXPECT_EQ(strict.label, N);  // 0.8 < 0.85
  EXPECT_TRUE(strict.rationale.empty());
}

TEST(TeiVerifier, AFailedRequestFailsTheDocumentsOfItsPremisesInsteadOfANeutralVerdict) {
  // Requests of two pairs, in premise order: d1's s0 s1 | d1's s2, d2's s0 | d3's s0 s1. The second
  // is refused; d1 and d2 cannot be judged, d3 is.
  auto transport = std::make_shared<testing::InProcessTransport>([](const served::JsonRequest& request) {
    if (request.body["inputs"][0][0] == "nothing here") return served::JsonReply{nullptr, "HTTP status 429: too many requests", 429};
    json reply = json::array();
    for (std::size_t i = 0; i < request.body["inputs"].size(); ++i) {
      reply.push_back(json::parse(R"([{"label": "entailment", "score": 0.9}, {"label": "neutral", "score": 0.05},
                                      {"label": "contradiction", "score": 0.05}])"));
    }
    return served::JsonReply{reply, "", 200};
  });
  const auto verdicts = make_tei_verifier(transport, {{PremiseUnit::sentence, 0.5, 3}, 2})->verify(hand_made_inputs());
  ASSERT_EQ(verdicts.size(), 3U);
  const std::string reason = "http://tei.test:8081: POST /predict failed: HTTP status 429: too many requests";
  for (const auto& failed : {verdicts[0].documents.at(0), verdicts[0].documents.at(1)}) {
    EXPECT_EQ(failed.failure, reason);
    EXPECT_EQ(failed.label, N);
    EXPECT_EQ(failed.probabilities, (LabelDistribution{0.0, 0.0, 1.0}));
    EXPECT_TRUE(failed.rationale.empty());
  }
  const auto& judged = verdicts[1].documents.at(0);
  EXPECT_EQ(judged.failure, "");
  EXPECT_EQ(judged.label, S);
  const auto failures = count_failures(verdicts);
  EXPECT_EQ(failures.failed, 2U);
  EXPECT_EQ(failures.judged, 3U);
  EXPECT_EQ(failures.first_reason, reason);
  EXPECT_THROW(enforce_max_failures(failures, 0.5, "tei:http://tei.test:8081"), DataError);  // 2 of 3 > half
}

TEST(TeiVerifier, OptionsAreChecked) {
  auto transport = std::make_shared<testing::InProcessTransport>([](const served::JsonRequest&) { return served::JsonReply{}; });
  EXPECT_THROW((void)make_tei_verifier(transport, {{PremiseUnit::sentence, 0.0, 3}, 32}), UsageError);
  EXPECT_THROW((void)make_tei_verifier(transport, {{PremiseUnit::sentence, 0.5, 0}, 32}), UsageError);
  EXPECT_THROW((void)make_tei_verifier(transport, {{PremiseUnit::sentence, 0.5, 3}, 0}), UsageError);
  EXPECT_THROW(make_tei_verifier(transport, {{PremiseUnit::sentence, 0.5, 3}, 1})->save("/tmp/never"), UsageError);
}

}  // namespace
}  // namespace claimrag::verification
