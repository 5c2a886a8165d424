// The verify stage's modes on the tiny BEIR fixture, with the OverlapVerifier standing in for a
// trained model (overlap_verifier.hpp gives the rules the expected answers follow).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/experiment/retrieval/bm25_stage.hpp"
#include "claimrag/experiment/verification/verify_stage.hpp"
#include "claimrag/verification/prediction.hpp"
#include "overlap_verifier.hpp"
#include "support/run_binary.hpp"
#include "support/temp_folder.hpp"

namespace claimrag {
namespace {

/// The built-in defaults, one instance for every test (a temporary of this large aggregate per
/// call trips GCC 12's -Wmaybe-uninitialized in the inlined destructors).
const experiment::ExperimentConfig& default_config() {
  static const experiment::ExperimentConfig defaults;
  return defaults;
}

namespace fs = std::filesystem;
using experiment::VerifyMode;
using experiment::VerifyRequest;
using testing::expect_error;
using testing::OverlapVerifier;
using testing::TempFolder;

const fs::path kTinyBeir = fs::path(CLAIMRAG_SOURCE_DIR) / "data/fixtures/tiny-beir";

VerifyRequest claim_request(const std::string& claim) {
  VerifyRequest request;
  request.data = kTinyBeir;
  request.claim = claim;
  request.k = 2;
  return request;
}

std::string verify_claim(const VerifyRequest& request) {
  const auto& config = default_config();
  const auto inputs = experiment::verify_inputs(request, config);
  std::ostringstream out;
  experiment::deliver_verdicts(OverlapVerifier{}, request, inputs, out);
  return out.str();
}

TEST(VerifyStage, FlagsSelectExactlyOneModeWithWhatItNeeds) {
  VerifyRequest none;
  expect_error<UsageError>([&] { experiment::verify_mode(none); }, "give exactly one of --run, --pairs and --claim");
  auto both = claim_request("x");
  both.pairs = "p.jsonl";
  expect_error<UsageError>([&] { experiment::verify_mode(both); }, "give exactly one of --run, --pairs and --claim");
  auto blank = claim_request("  ");
  expect_error<UsageError>([&] { experiment::verify_mode(blank); }, "--claim is empty");
  auto no_data = claim_request("x");
  no_data.data.clear();
  expect_error<UsageError>([&] { experiment::verify_mode(no_data); }, "--claim needs --data");
  auto claim_out = claim_request("x");
  claim_out.out = "o.jsonl";
  expect_error<UsageError>([&] { experiment::verify_mode(claim_out); }, "--out (the verdict goes to stdout) does not apply with --claim");
  EXPECT_EQ(experiment::verify_mode(claim_request("x")), VerifyMode::claim);

  VerifyRequest pairs;
  pairs.pairs = "p.jsonl";
  expect_error<UsageError>([&] { experiment::verify_mode(pairs); }, "--pairs needs --out");
  pairs.out = "o.jsonl";
  EXPECT_EQ(experiment::verify_mode(pairs), VerifyMode::pairs);
  pairs.json = true;
  expect_error<UsageError>([&] { experiment::verify_mode(pairs); }, "--json does not apply with --pairs");

  VerifyRequest run;
  run.run = "r.trec";
  run.out = "o.jsonl";
  run.data = kTinyBeir;
  expect_error<UsageError>([&] { experiment::verify_mode(run); }, "--run needs --split or --queries");
  run.claims.split = "test";
  EXPECT_EQ(experiment::verify_mode(run), VerifyMode::run);
  run.model = "m.safetensors";
  run.save_model = "n.safetensors";
  expect_error<UsageError>([&] { experiment::verify_mode(run); }, "--save-model saves a trained verifier");
}

TEST(VerifyStage, ClaimRetrievesWithBm25AndPrintsTheVerdict) {
  // Only d1 shares a word with the claim, so BM25 returns it alone although k is 2.
  EXPECT_EQ(verify_claim(claim_request("Aspirin lowers myocardial infarction risk.")),
            "Claim: Aspirin lowers myocardial infarction risk.\n"
            "\n[1] d1: Aspirin reduces heart attack risk\n"
            "    SUPPORT  P(SUPPORT) 0.700  P(CONTRADICT) 0.200  P(NOT_ENOUGH_INFO) 0.100\n"
            "    cites sentence 0 (score 1.000): Daily aspirin lowers the risk of myocardial infarction in adults.\n"
            "\nVerdict: SUPPORT by 1 abstract (d1)\n");
}

TEST(VerifyStage, ASavedIndexGivesTheSameVerdictAsOneBuiltInMemory) {
  TempFolder folder;
  experiment::index_bm25(kTinyBeir, folder.path() / "index", default_config());
  auto request = claim_request("Coffee causes heart disease.");
  const std::string in_memory = verify_claim(request);
  request.index = folder.path() / "index";
  EXPECT_EQ(verify_claim(request), in_memory);
  EXPECT_NE(in_memory.find("CONTRADICT"), std::string::npos) << in_memory;
}

TEST(VerifyStage, AClaimSharingNoWordWithTheCorpusIsNotEnoughEvidenceWithItsReason) {
  auto request = claim_request("Zebras xylophone quietly.");
  EXPECT_EQ(verify_claim(request), "Claim: Zebras xylophone quietly.\n\nVerdict: not enough evidence (no retrieved abstract)\n");
  request.json = true;
  const auto json = nlohmann::json::parse(verify_claim(request));
  EXPECT_EQ(json["not_enough_evidence"], true);
  EXPECT_EQ(json["reason"], "no retrieved abstract");
}

TEST(VerifyStage, PairsAreWrittenInInputOrderAndBadPairsWriteNothing) {
  TempFolder folder;
  VerifyRequest request;
  request.pairs = folder.write("pairs.jsonl",
                              "{\"id\": \"b\", \"claim\": \"Smoking causes cancer.\", \"evidence\": \"Smoking causes lung cancer.\"}\n"
                              "{\"id\": \"a\", \"claim\": \"Smoking causes cancer.\", \"evidence\": \"Rain fell.\"}\n");
  request.out = folder.path() / "out.jsonl";
  const auto inputs = experiment::verify_inputs(request, default_config());
  std::ostringstream unused;
  const auto summary = experiment::deliver_verdicts(OverlapVerifier{}, request, inputs, unused);
  EXPECT_EQ(summary.claims, 2u);
  EXPECT_EQ(summary.not_enough_evidence, 1u);
  const std::string written = testing::slurp(request.out);
  EXPECT_EQ(written.substr(0, 27), "{\"id\":\"b\",\"label\":\"SUPPORT\"");
  EXPECT_NE(written.find("\n{\"id\":\"a\",\"label\":\"NOT_ENOUGH_INFO\""), std::string::npos) << written;

  request.pairs = folder.write("bad.jsonl", "{\"id\": \"b\", \"claim\": \"c\", \"evidence\": \"e\"}\n{\"id\": \"b\", \"claim\": \"c\", \"evidence\": \"e\"}\n");
  request.out = folder.path() / "bad_out.jsonl";
  expect_error<DataError>([&] { (void)experiment::verify_inputs(request, default_config()); }, "bad.jsonl:2: duplicate id");
  EXPECT_FALSE(fs::exists(request.out));
}

TEST(VerifyStage, RunClaimsGetOnePredictionLineEachInSplitOrderUnrankedOnesWithTheirReason) {
  TempFolder folder;
  VerifyRequest request;
  request.data = kTinyBeir;
  request.claims.split = "test";
  request.k = 1;
  // q2 is ranked before q1 in the file; q3, q4 and q5 are not ranked at all.
  request.run = folder.write("run.trec", "q2 Q0 d3 1 4 t\nq1 Q0 d1 1 5 t\nq1 Q0 d5 2 2 t\n");
  request.out = folder.path() / "pred.jsonl";
  const auto inputs = experiment::verify_inputs(request, default_config());
  std::ostringstream unused;
  const auto summary = experiment::deliver_verdicts(OverlapVerifier{}, request, inputs, unused);
  EXPECT_EQ(summary.claims, 5u);
  EXPECT_EQ(summary.documents, 2u);
  EXPECT_EQ(summary.claims_without_documents, 3u);
  const auto predictions = verification::read_predictions(request.out);
  ASSERT_EQ(predictions.size(), 5u);
  const std::vector<std::string> order{"q1", "q2", "q3", "q4", "q5"};
  for (std::size_t c = 0; c < order.size(); ++c) EXPECT_EQ(predictions[c].claim_id, order[c]);
  // q1 against d1 only (k = 1): every claim token is in d1's one sentence, so SUPPORT citing it.
  ASSERT_EQ(predictions[0].documents.size(), 1u);
  const auto& d1 = predictions[0].documents[0];
  EXPECT_EQ(d1.doc_id, "d1");
  EXPECT_EQ(d1.label, verification::Label::support);
  EXPECT_EQ(d1.sentences, (std::vector<std::size_t>{0}));
  EXPECT_EQ(d1.probabilities, (std::array<double, 3>{0.7, 0.2, 0.1}));
  EXPECT_EQ(d1.retrieval_rank, 1u);
  // q2 "Smoking causes lung cancer." against d3 "Tobacco smoking strongly increases lung cancer
  // incidence.": smoking, lung, cancer of 4 tokens (0.75), no "not": SUPPORT.
  EXPECT_EQ(predictions[1].documents.at(0).label, verification::Label::support);
  EXPECT_TRUE(predictions[2].documents.empty());
  EXPECT_EQ(predictions[2].reason, "no retrieved abstract");

  const std::string first = testing::slurp(request.out);
  experiment::deliver_verdicts(OverlapVerifier{}, request, inputs, unused);
  EXPECT_EQ(testing::slurp(request.out), first);
}

TEST(VerifyStage, ARunOfOtherClaimsIsADataErrorNamingTheRun) {
  TempFolder folder;
  VerifyRequest request;
  request.data = kTinyBeir;
  request.claims.split = "test";
  request.k = 1;
  request.run = folder.write("other.trec", "x9 Q0 d3 1 4 t\n");
  request.out = folder.path() / "pred.jsonl";
  expect_error<DataError>([&] { (void)experiment::verify_inputs(request, default_config()); },
                          "other.trec: ranks none of the 5 claims to verify");
}

}  // namespace
}  // namespace claimrag
