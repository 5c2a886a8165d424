// The built-in responder over a test-double verifier, the recorded responder, the interrogation
// driver and the claim-level verdict.

#include <gtest/gtest.h>
#include <omp.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/interrogation/builtin_responder.hpp"
#include "claimrag/interrogation/claim_verdict.hpp"
#include "claimrag/interrogation/interrogate.hpp"
#include "claimrag/interrogation/recorded_responder.hpp"
#include "support/fake_verifier.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace ci = claimrag::interrogation;
using ci::Answer;
using claimrag::verification::Label;

namespace {

ci::Probe probe(const std::string& id, bool asks_false, bool negated, bool original = false) {
  ci::Probe p;
  p.id = id;
  p.template_text = "Is \"{claim}\" " + std::string(asks_false ? "false" : "true") + "? {abstract}";
  p.asks_false = asks_false;
  p.negated_claim = negated;
  p.original = original;
  return p;
}

std::vector<ci::Probe> four_probes() {
  return {probe("original", false, false, true), probe("false", true, false), probe("negated", false, true),
          probe("negated_false", true, true)};
}

ci::InterrogationPair pair(const std::string& id, const std::string& claim, const std::string& negated,
                           const std::string& claim_id = "") {
  ci::InterrogationPair p;
  p.id = id;
  p.claim_id = claim_id.empty() ? id : claim_id;
  p.claim = claim;
  p.negated_claim = negated;
  p.abstract = "An abstract about " + claim + ".";
  p.evidence.doc_id = "doc-" + id;
  p.evidence.sentences = {p.abstract};
  return p;
}

/// Answers every request with text computed from (pair, probe, sample).
class ScriptedResponder final : public ci::Responder {
 public:
  using Script = std::function<std::string(const std::string&, const std::string&, std::size_t)>;
  explicit ScriptedResponder(Script script) : script_(std::move(script)) {}
  std::vector<std::vector<std::string>> respond(std::span<const ci::ProbeRequest> requests, std::size_t samples) override {
    std::vector<std::vector<std::string>> answers;
    for (const auto& request : requests) {
      prompts.push_back(request.prompt);
      answers.emplace_back();
      for (std::size_t k = 0; k < samples; ++k) answers.back().push_back(script_(request.pair->id, request.probe->id, k));
    }
    return answers;
  }
  std::vector<std::string> prompts;

 private:
  Script script_;
};

}  // namespace

TEST(InterrogationBuiltin, AnswerTextFollowsTheQuestionsPolarity) {
  const auto is_true = probe("t", false, false);
  const auto is_false = probe("f", true, false);
  EXPECT_EQ(ci::answer_text(is_true, Label::support), "Yes");
  EXPECT_EQ(ci::answer_text(is_true, Label::contradict), "No");
  EXPECT_EQ(ci::answer_text(is_true, Label::not_enough_info), "I am not sure");
  // "Is X false?" with X supported: no.
  EXPECT_EQ(ci::answer_text(is_false, Label::support), "No");
  EXPECT_EQ(ci::answer_text(is_false, Label::contradict), "Yes");
  EXPECT_EQ(ci::answer_text(is_false, Label::not_enough_info), "I am not sure");
  auto completion = is_true;
  completion.form = ci::ProbeForm::completion;
  EXPECT_EQ(ci::answer_text(completion, Label::support), "high");
  EXPECT_EQ(ci::answer_text(completion, Label::contradict), "low");
  EXPECT_EQ(ci::answer_text(completion, Label::not_enough_info), "uncertain");
}

TEST(InterrogationBuiltin, SampleLabelAtTemperature) {
  const std::array<double, 3> p{0.5, 0.3, 0.2};
  // T = 1: cumulative 0.5, 0.8, 1.0.
  EXPECT_EQ(ci::sample_label(p, 1.0, 0.49), Label::support);
  EXPECT_EQ(ci::sample_label(p, 1.0, 0.51), Label::contradict);
  EXPECT_EQ(ci::sample_label(p, 1.0, 0.79), Label::contradict);
  EXPECT_EQ(ci::sample_label(p, 1.0, 0.81), Label::not_enough_info);
  // T = 0.5: q ∝ p^2 = (0.25, 0.09, 0.04) / 0.38 = (0.657895, 0.236842, 0.105263);
  // cumulative 0.657895, 0.894737, 1.
  EXPECT_EQ(ci::sample_label(p, 0.5, 0.65), Label::support);
  EXPECT_EQ(ci::sample_label(p, 0.5, 0.66), Label::contradict);
  EXPECT_EQ(ci::sample_label(p, 0.5, 0.89), Label::contradict);
  EXPECT_EQ(ci::sample_label(p, 0.5, 0.90), Label::not_enough_info);
  // T = 0: the most probable label, whatever u.
  EXPECT_EQ(ci::sample_label(p, 0.0, 0.99), Label::support);
  // A zero probability is never drawn.
  EXPECT_EQ(ci::sample_label({0.0, 1.0, 0.0}, 2.0, 0.0), Label::contradict);
  EXPECT_EQ(ci::sample_label({0.0, 1.0, 0.0}, 2.0, 0.999999), Label::contradict);
}

TEST(InterrogationBuiltin, CertainVerifierMakesEveryProbeAgree) {
  claimrag::testing::FakeVerifier verifier;
  verifier.set("C", {1.0, 0.0, 0.0});   // the abstract supports C
  verifier.set("not C", {0.0, 1.0, 0.0});  // and contradicts its negation
  ci::BuiltinResponder responder(verifier, {1.0, 42});
  const std::vector<ci::InterrogationPair> pairs{pair("1", "C", "not C")};
  const auto probes = four_probes();
  const auto results = ci::interrogate(pairs, probes, responder, {5, 0.5});
  // One verifier input per distinct claim of the pair: C and ¬C.
  EXPECT_EQ(verifier.seen(), (std::vector<std::string>{"C", "not C"}));
  ASSERT_EQ(results.size(), 1U);
  const auto& result = results[0];
  ASSERT_EQ(result.responses.size(), 20U);
  // "is C true?" Yes; "is C false?" No; "is ¬C true?" No; "is ¬C false?" Yes — all Support C.
  EXPECT_EQ(result.responses[0].text, "Yes");
  EXPECT_EQ(result.responses[5].text, "No");
  EXPECT_EQ(result.responses[10].text, "No");
  EXPECT_EQ(result.responses[15].text, "Yes");
  for (const auto& response : result.responses) EXPECT_EQ(response.stance, Answer::support);
  EXPECT_EQ(result.fusion.tally.agree.counts, (std::array<std::size_t, 3>{10, 0, 0}));
  EXPECT_EQ(result.fusion.tally.conflict.counts, (std::array<std::size_t, 3>{10, 0, 0}));
  EXPECT_EQ(result.fusion.meta.verdict, Answer::support);
  EXPECT_EQ(result.fusion.wp.confidence, 1.0);
  EXPECT_EQ(result.baseline, Answer::support);
}

TEST(InterrogationBuiltin, SamplesFollowTheDistributionAndTheSeed) {
  claimrag::testing::FakeVerifier verifier;
  verifier.set("C", {0.5, 0.3, 0.2});
  const std::vector<ci::InterrogationPair> pairs{pair("1", "C", "not C")};
  const std::vector<ci::Probe> probes{probe("original", false, false, true)};
  const auto texts = [&](std::uint64_t seed, std::size_t samples) {
    ci::BuiltinResponder responder(verifier, {1.0, seed});
    std::vector<ci::ProbeRequest> requests{{&pairs[0], &probes[0], "C", "prompt"}};
    return responder.respond(requests, samples)[0];
  };
  const auto many = texts(42, 20000);
  std::array<double, 3> share{};
  for (const auto& text : many) share[text == "Yes" ? 0 : text == "No" ? 1 : 2] += 1.0 / 20000.0;
  // Binomial standard error at n = 20000 is at most 0.0036; 0.015 is four of them.
  EXPECT_NEAR(share[0], 0.5, 0.015);
  EXPECT_NEAR(share[1], 0.3, 0.015);
  EXPECT_NEAR(share[2], 0.2, 0.015);
  EXPECT_EQ(texts(42, 50), texts(42, 50));
  EXPECT_NE(texts(42, 50), texts(43, 50));
  // Sample k does not depend on how many samples were asked.
  const auto ten = texts(42, 10);
  EXPECT_EQ(std::vector<std::string>(many.begin(), many.begin() + 10), ten);
}

TEST(InterrogationBuiltin, NegativeTemperatureIsAUsageError) {
  claimrag::testing::FakeVerifier verifier;
  EXPECT_THROW(ci::BuiltinResponder(verifier, {-0.5, 42}), claimrag::UsageError);
}

TEST(InterrogationDriver, BadOptionsAreUsageErrors) {
  ScriptedResponder responder([](auto&, auto&, std::size_t) { return "Yes"; });
  const std::vector<ci::InterrogationPair> pairs{pair("1", "C", "")};
  const auto probes = four_probes();
  EXPECT_THROW(ci::interrogate(pairs, std::span(probes).first(1), responder, {0, 0.5}), claimrag::UsageError);
  EXPECT_THROW(ci::interrogate(pairs, std::span(probes).first(1), responder, {10, 1.01}), claimrag::UsageError);
  EXPECT_THROW(ci::interrogate(pairs, std::span(probes).first(1), responder, {10, -0.01}), claimrag::UsageError);
}

TEST(InterrogationDriver, AClaimWithoutNegationSkipsTheNegatedProbesVisibly) {
  ScriptedResponder responder([](auto&, auto&, std::size_t) { return "Yes"; });
  const std::vector<ci::InterrogationPair> pairs{pair("1", "C", ""), pair("2", "D", "not D")};
  const auto probes = four_probes();  // original, false, negated, negated_false
  const auto results = ci::interrogate(pairs, probes, responder, {3, 0.5});
  EXPECT_EQ(results[0].skipped_probes, 2U);
  EXPECT_EQ(results[0].responses.size(), 6U);
  EXPECT_EQ(results[0].responses[3].probe, 1U);
  EXPECT_EQ(results[1].skipped_probes, 0U);
  EXPECT_EQ(results[1].responses.size(), 12U);
  // Pair 1: "Yes" to "is C true?" (S) x3 and "is C false?" (S, inverted R) x3.
  EXPECT_EQ(results[0].fusion.tally.conflict.counts, (std::array<std::size_t, 3>{0, 3, 0}));
  EXPECT_EQ(responder.prompts.size(), 6U);
}

TEST(InterrogationDriver, PairsAreReadAndTheirClaimsNegated) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("pairs.jsonl",
                                 R"({"id": "a", "claim": "Aspirin increases bleeding.", "evidence": "Aspirin raised bleeding risk in the trial."})"
                                 "\n"
                                 R"({"id": 7, "claim_id": "c", "claim": "Nothing works.", "evidence": "Short."})"
                                 "\n");
  const auto pairs = ci::load_pairs(file, nullptr);
  ASSERT_EQ(pairs.size(), 2U);
  EXPECT_EQ(pairs[0].negated_claim, "Aspirin decreases bleeding.");
  EXPECT_EQ(pairs[0].negation_rule, "swap_direction");
  EXPECT_EQ(pairs[0].claim_id, "a");
  EXPECT_EQ(pairs[0].evidence.sentences, (std::vector<std::string>{"Aspirin raised bleeding risk in the trial."}));
  EXPECT_EQ(pairs[1].id, "7");
  EXPECT_EQ(pairs[1].claim_id, "c");
  EXPECT_EQ(pairs[1].negated_claim, "");  // "nothing" has no removal rule
  EXPECT_EQ(pairs[1].negation_rule, "none");
  EXPECT_EQ(pairs[1].evidence.sentences, (std::vector<std::string>{"Short."}));
  const auto bad = folder.write("bad.jsonl", R"({"id": "a", "claim": "X", "doc_id": "1"})" "\n");
  EXPECT_THROW(ci::load_pairs(bad, nullptr), claimrag::DataError);
  const auto both = folder.write("both.jsonl", R"({"id": "a", "claim": "X", "doc_id": "1", "evidence": "E"})" "\n");
  EXPECT_THROW(ci::load_pairs(both, nullptr), claimrag::DataError);
}

TEST(InterrogationDriver, ResolvesCountsAndWritesEveryResponse) {
  // Sample 0 of the original probe answers "Yes", sample 1 an HTML page; "false" answers
  // "No. The claim is not false." then "" (empty). Stances: original S, N; false S, N.
  ScriptedResponder responder([](const std::string&, const std::string& probe_id, std::size_t k) -> std::string {
    if (probe_id == "original") return k == 0 ? "Yes" : "<html><body>error</body></html>";
    return k == 0 ? "No. The claim is not false." : "";
  });
  const std::vector<ci::InterrogationPair> pairs{pair("p1", "C", "")};
  const std::vector<ci::Probe> probes{probe("original", false, false, true), probe("false", true, false)};
  const auto results = ci::interrogate(pairs, probes, responder, {2, 0.5});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(responder.prompts[0], "Is \"C\" true? An abstract about C.");
  EXPECT_EQ(results[0].unresolved, 2U);
  EXPECT_EQ(results[0].fusion.tally.agree.counts, (std::array<std::size_t, 3>{1, 0, 1}));
  EXPECT_EQ(results[0].fusion.tally.conflict.counts, (std::array<std::size_t, 3>{1, 0, 1}));
  // WP = 0.5 (0.5, 0, 0.5) + 0.5 (0.5, 0, 0.5) = (0.5, 0, 0.5): a tie between S and N -> Neutral.
  EXPECT_EQ(results[0].fusion.wp.verdict, Answer::neutral);

  claimrag::testing::TempFolder folder;
  const auto out = folder.path() / "out.jsonl";
  ci::write_interrogation(out, pairs, probes, results);
  const auto line = nlohmann::json::parse(claimrag::testing::slurp(out));
  EXPECT_EQ(line["pair_id"], "p1");
  EXPECT_EQ(line["doc_id"], "doc-p1");
  ASSERT_EQ(line["responses"].size(), 4U);
  EXPECT_EQ(line["responses"][2]["probe_id"], "false");
  EXPECT_EQ(line["responses"][2]["set"], "conflict");
  EXPECT_EQ(line["responses"][2]["answer"], "REFUTE");
  EXPECT_EQ(line["responses"][2]["stance"], "SUPPORT");
  EXPECT_EQ(line["responses"][1]["resolved"], false);
  EXPECT_EQ(line["unresolved"], 2);
  EXPECT_EQ(line["baseline"], "SUPPORT");
  EXPECT_EQ(line["counts"]["conflict"], nlohmann::json::array({1, 0, 1}));
  EXPECT_EQ(line["wp"]["verdict"], "NEUTRAL");
  EXPECT_EQ(line["wbu"]["total_conflict"], false);
  EXPECT_TRUE(line["meta"].contains("confidence"));
}

TEST(InterrogationDriver, OutputIsIdenticalForOneAndTwoThreads) {
  claimrag::testing::FakeVerifier verifier;
  std::vector<ci::InterrogationPair> pairs;
  for (int i = 0; i < 40; ++i) {
    const std::string claim = "claim " + std::to_string(i);
    verifier.set(claim, {0.2 + 0.01 * i, 0.5 - 0.01 * i, 0.3});
    pairs.push_back(pair(std::to_string(i), claim, "not " + claim));
  }
  const auto probes = four_probes();
  claimrag::testing::TempFolder folder;
  const auto run = [&](int threads, const std::string& name) {
    omp_set_num_threads(threads);
    ci::BuiltinResponder responder(verifier, {1.0, 42});
    const auto results = ci::interrogate(pairs, probes, responder, {10, 0.6});
    ci::write_interrogation(folder.path() / name, pairs, probes, results);
    return claimrag::testing::slurp(folder.path() / name);
  };
  const std::string one = run(1, "one.jsonl");
  const std::string two = run(2, "two.jsonl");
  omp_set_num_threads(omp_get_num_procs());
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, two);
}

TEST(InterrogationRecorded, ReplaysARecordingAndCountsUnusedAnswers) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.path() / "rec.jsonl";
  ci::write_recording(file, {{"p1", "original", 0, "Yes"}, {"p1", "original", 1, "No"}, {"p1", "original", 2, "Maybe"}});
  ci::RecordedResponder responder(file);
  const std::vector<ci::InterrogationPair> pairs{pair("p1", "C", "")};
  const std::vector<ci::Probe> probes{probe("original", false, false, true)};
  const std::vector<ci::ProbeRequest> requests{{&pairs[0], &probes[0], "C", "prompt"}};
  EXPECT_EQ(responder.respond(requests, 2), (std::vector<std::vector<std::string>>{{"Yes", "No"}}));
  EXPECT_EQ(responder.unused(), 1U);
}

TEST(InterrogationRecorded, AMissingAnswerIsADataErrorNamingIt) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("rec.jsonl", R"({"pair_id": "p1", "probe_id": "original", "sample": 0, "text": "Yes"})" "\n");
  ci::RecordedResponder responder(file);
  const std::vector<ci::InterrogationPair> pairs{pair("p1", "C", "")};
  const std::vector<ci::Probe> probes{probe("original", false, false, true)};
  const std::vector<ci::ProbeRequest> requests{{&pairs[0], &probes[0], "C", "prompt"}};
  try {
    (void)responder.respond(requests, 2);
    FAIL() << "no error";
  } catch (const claimrag::DataError& error) {
    EXPECT_NE(std::string(error.what()).find("pair 'p1', probe 'original', sample 1"), std::string::npos) << error.what();
  }
}

TEST(InterrogationRecorded, MalformedRecordingsAreRefusedWithTheLine) {
  claimrag::testing::TempFolder folder;
  const std::string line = R"({"pair_id": "p1", "probe_id": "original", "sample": 0, "text": "Yes"})";
  const auto message = [&](const std::string& name, const std::string& contents) -> std::string {
    try {
      ci::RecordedResponder responder(folder.write(name, contents));
    } catch (const claimrag::DataError& error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_NE(message("dup.jsonl", line + "\n" + line + "\n").find("dup.jsonl:2: a second answer"), std::string::npos);
  EXPECT_NE(message("neg.jsonl", R"({"pair_id": "p1", "probe_id": "o", "sample": -1, "text": ""})").find(":1: \"sample\""),
            std::string::npos);
  EXPECT_NE(message("extra.jsonl", R"({"pair_id": "p1", "probe_id": "o", "sample": 0, "text": "", "x": 1})")
                .find("unknown field \"x\""),
            std::string::npos);
  EXPECT_NE(message("notext.jsonl", R"({"pair_id": "p1", "probe_id": "o", "sample": 0})").find("\"text\" is missing"),
            std::string::npos);
}

TEST(InterrogationClaimLevel, WeightedVoteAndMostConfidentAbstracts) {
  // Claim c1 over four abstracts: S 0.9, S 0.3, R 0.8, N 0.7. s = 1.2, r = 0.8 -> SUPPORT, 1.2 / 2.0 = 0.6.
  // Claim c2: one Neutral abstract at 0.4 -> NEUTRAL, confidence 0.4 (the mean CS_M).
  // Claim c3: S 0.5 and R 0.5 -> NEUTRAL, 0.5.
  std::vector<ci::InterrogationPair> pairs{pair("a", "C1", "", "c1"), pair("b", "C1", "", "c1"), pair("c", "C1", "", "c1"),
                                           pair("d", "C1", "", "c1"), pair("e", "C2", "", "c2"), pair("f", "C3", "", "c3"),
                                           pair("g", "C3", "", "c3")};
  const std::vector<std::pair<Answer, double>> metas{{Answer::support, 0.3}, {Answer::support, 0.9},
                                                     {Answer::refute, 0.8},  {Answer::neutral, 0.7},
                                                     {Answer::neutral, 0.4}, {Answer::support, 0.5},
                                                     {Answer::refute, 0.5}};
  std::vector<ci::PairInterrogation> results(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    results[i].fusion.meta.verdict = metas[i].first;
    results[i].fusion.meta.confidence = metas[i].second;
  }
  const auto claims = ci::claim_level_verdicts(pairs, results, 1);
  ASSERT_EQ(claims.size(), 3U);
  EXPECT_EQ(claims[0].claim_id, "c1");
  EXPECT_EQ(claims[0].verdict, Answer::support);
  EXPECT_NEAR(claims[0].confidence, 1.2 / 2.0, 1e-15);
  EXPECT_EQ(claims[0].abstracts, 4U);
  ASSERT_EQ(claims[0].supporting.size(), 1U);  // listed = 1: the most confident only
  EXPECT_EQ(claims[0].supporting[0].pair_id, "b");
  ASSERT_EQ(claims[0].refuting.size(), 1U);
  EXPECT_EQ(claims[0].refuting[0].doc_id, "doc-c");
  EXPECT_EQ(claims[1].verdict, Answer::neutral);
  EXPECT_EQ(claims[1].confidence, 0.4);
  EXPECT_EQ(claims[2].verdict, Answer::neutral);
  EXPECT_EQ(claims[2].confidence, 0.5);
}
