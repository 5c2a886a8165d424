// The prediction file: what is read from SciFact's official lines, exact round trips of our own
// fields, the fixed key order, and every malformed line named by file and line.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/verification/prediction.hpp"
#include "support/temp_folder.hpp"

using namespace claimrag;
using verification::ClaimPrediction;
using verification::DocumentPrediction;
using verification::Label;

namespace {

std::vector<ClaimPrediction> awkward_predictions() {
  DocumentPrediction full{"4983", Label::contradict, {2, 0, 7}, std::array<double, 3>{0.1, 1.0 / 3.0, 1.0 - 0.1 - 1.0 / 3.0},
                          std::vector<verification::SentenceScore>{{0, 5e-324}, {2, -0.0}, {7, 1.0}, {1, 1e300}},
                          3, 0, std::nullopt};
  DocumentPrediction bare{"12", Label::not_enough_info, {}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  return {{"13", {full, bare}, std::nullopt},
          {"013", {}, std::string("no retrieved abstract, \"quoted\"")},
          {"claim-x", {bare}, std::nullopt}};
}

}  // namespace

TEST(VerificationPrediction, ReadsTheOfficialFormat) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("p.jsonl",
                                 "{\"id\": 13, \"evidence\": {\"4983\": {\"label\": \"SUPPORT\", \"sentences\": [1, 0]}}}\n"
                                 "\n"
                                 "{\"id\": \"x7\", \"evidence\": {}}\r\n");
  const auto predictions = verification::read_predictions(file);
  ASSERT_EQ(predictions.size(), 2u);
  EXPECT_EQ(predictions[0].claim_id, "13");
  EXPECT_EQ(predictions[0].line, 1u);
  ASSERT_EQ(predictions[0].documents.size(), 1u);
  EXPECT_EQ(predictions[0].documents[0].doc_id, "4983");
  EXPECT_EQ(predictions[0].documents[0].label, Label::support);
  EXPECT_EQ(predictions[0].documents[0].sentences, (std::vector<std::size_t>{1, 0}));
  EXPECT_FALSE(predictions[0].documents[0].probabilities.has_value());
  EXPECT_FALSE(predictions[0].reason.has_value());
  EXPECT_EQ(predictions[1].claim_id, "x7");
  EXPECT_EQ(predictions[1].line, 3u);
  EXPECT_TRUE(predictions[1].documents.empty());
}

TEST(VerificationPrediction, KeepsDocumentOrderAndIgnoresUnknownFields) {
  claimrag::testing::TempFolder folder;
  const auto file = folder.write(
      "p.jsonl",
      "{\"id\": 1, \"extra\": [1, {\"a\": null}], \"evidence\": {\"9\": {\"label\": \"NOT_ENOUGH_INFO\", \"sentences\": [], "
      "\"note\": \"x\"}, \"3\": {\"label\": \"CONTRADICT\", \"sentences\": [4]}}}\n");
  const auto predictions = verification::read_predictions(file);
  ASSERT_EQ(predictions.at(0).documents.size(), 2u);
  EXPECT_EQ(predictions[0].documents[0].doc_id, "9");
  EXPECT_EQ(predictions[0].documents[1].doc_id, "3");
  EXPECT_EQ(predictions[0].documents[1].label, Label::contradict);
}

TEST(VerificationPrediction, WritesKeysInAFixedOrderByHand) {
  ClaimPrediction prediction{"7", {{"5", Label::support, {3, 1}, std::array<double, 3>{0.5, 0.25, 0.25},
                                   std::vector<verification::SentenceScore>{{1, 0.75}, {3, 2.0}}, 2, 1, std::nullopt}},
                             std::string("r")};
  EXPECT_EQ(verification::prediction_to_json_line(prediction),
            "{\"id\":7,\"evidence\":{\"5\":{\"label\":\"SUPPORT\",\"sentences\":[3,1],"
            "\"probabilities\":{\"SUPPORT\":0.5,\"CONTRADICT\":0.25,\"NOT_ENOUGH_INFO\":0.25},"
            "\"sentence_scores\":[[1,0.75],[3,2.0]],\"retrieval_rank\":2,\"truncated_sentences\":1}},\"reason\":\"r\"}");
  // Ids that are not an int64's canonical decimal form stay strings, so they read back unchanged.
  EXPECT_EQ(verification::prediction_to_json_line({"013", {}, std::nullopt}), "{\"id\":\"013\",\"evidence\":{}}");
  EXPECT_EQ(verification::prediction_to_json_line({"-2", {}, std::nullopt}), "{\"id\":-2,\"evidence\":{}}");
  EXPECT_EQ(verification::prediction_to_json_line({"99999999999999999999", {}, std::nullopt}),
            "{\"id\":\"99999999999999999999\",\"evidence\":{}}");
}

TEST(VerificationPrediction, RoundTripIsExactToTheBit) {
  claimrag::testing::TempFolder folder;
  const auto predictions = awkward_predictions();
  verification::write_predictions(predictions, folder.path() / "a.jsonl");
  const auto back = verification::read_predictions(folder.path() / "a.jsonl");
  ASSERT_EQ(back, predictions);
  const auto& scores = *back[0].documents[0].sentence_scores;
  EXPECT_EQ(scores[0].score, 5e-324);
  EXPECT_TRUE(std::signbit(scores[1].score));
  EXPECT_EQ((*back[0].documents[0].probabilities)[1], 1.0 / 3.0);
  verification::write_predictions(back, folder.path() / "b.jsonl");
  EXPECT_EQ(io::read_file(folder.path() / "a.jsonl"), io::read_file(folder.path() / "b.jsonl"));
}

TEST(VerificationPrediction, WriterRefusesWhatCannotBeReadBack) {
  claimrag::testing::TempFolder folder;
  const auto target = folder.path() / "p.jsonl";
  auto predictions = awkward_predictions();
  (*predictions[0].documents[0].probabilities)[0] = std::numeric_limits<double>::quiet_NaN();
  claimrag::testing::expect_error<InternalError>([&] { verification::write_predictions(predictions, target); }, "not finite");
  predictions = awkward_predictions();
  predictions[2].claim_id = "13";
  claimrag::testing::expect_error<InternalError>([&] { verification::write_predictions(predictions, target); }, "claim 13 given twice");
  predictions = awkward_predictions();
  predictions[0].documents[1].doc_id = "4983";
  claimrag::testing::expect_error<InternalError>([&] { verification::write_predictions(predictions, target); }, "4983 given twice");
  predictions = awkward_predictions();
  predictions[0].documents[0].sentences = {2, 2};
  claimrag::testing::expect_error<InternalError>([&] { verification::write_predictions(predictions, target); }, "sentence twice");
  EXPECT_FALSE(std::filesystem::exists(target));
}

TEST(VerificationPrediction, EachMalformedLineIsNamedByFileAndLine) {
  const std::string good = "{\"id\": 1, \"evidence\": {}}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [0]}}", "malformed JSON"},
      {"[1, 2]", "expected a JSON object"},
      {"{\"evidence\": {}}", "\"id\" is missing"},
      {"{\"id\": 2.5, \"evidence\": {}}", "\"id\" is neither"},
      {"{\"id\": 2}", "\"evidence\" is missing"},
      {"{\"id\": 2, \"evidence\": []}", "\"evidence\" is not an object"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"sentences\": [0]}}}", "document 4: \"label\" is missing"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"NEI\", \"sentences\": [0]}}}", "unknown label \"NEI\""},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\"}}}", "\"sentences\" is missing"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [-1]}}}", "not a non-negative integer"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [1.0]}}}", "not a non-negative integer"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [\"1\"]}}}", "not a non-negative integer"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [1, 1]}}}", "sentence 1 is listed twice"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": []}, \"4\": {\"label\": \"SUPPORT\", "
       "\"sentences\": []}}}",
       "document 4 is predicted twice"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [], \"probabilities\": {\"SUPPORT\": 1, "
       "\"CONTRADICT\": 0}}}}",
       "lacks NOT_ENOUGH_INFO"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [], \"probabilities\": {\"SUPPORT\": \"1\", "
       "\"CONTRADICT\": 0, \"NOT_ENOUGH_INFO\": 0}}}}",
       "a probability is not a number"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [], \"sentence_scores\": [[0]]}}}",
       "not an [index, score] pair"},
      {"{\"id\": 2, \"evidence\": {\"4\": {\"label\": \"SUPPORT\", \"sentences\": [], \"retrieval_rank\": -3}}}",
       "\"retrieval_rank\" is not a non-negative integer"},
      {"{\"id\": 2, \"evidence\": {}, \"reason\": 5}", "\"reason\" is not a string"},
      {"{\"id\": \"1\", \"evidence\": {}}", "claim 1 is predicted on an earlier line too"},
  };
  claimrag::testing::TempFolder folder;
  for (const auto& [line, fragment] : cases) {
    SCOPED_TRACE(line);
    const auto file = folder.write("bad.jsonl", good + line + "\n");
    claimrag::testing::expect_error<DataError>([&] { (void)verification::read_predictions(file); }, file.string() + ":2: ");
    claimrag::testing::expect_error<DataError>([&] { (void)verification::read_predictions(file); }, fragment);
  }
  claimrag::testing::expect_error<DataError>([&] { (void)verification::read_predictions(folder.path() / "absent.jsonl"); },
                                   "no such file");
}

TEST(VerificationPrediction, ConvertsAVerdictWithItsInput) {
  verification::ClaimVerdict verdict{"5", {}, ""};
  verdict.documents.push_back({"d1", Label::contradict, {0.2, 0.7, 0.1}, {2, 0}, {{0, 0.6}, {1, 0.1}, {2, 0.9}}, 1, std::nullopt, {}});
  verdict.documents.push_back({"d2", Label::not_enough_info, {0.1, 0.1, 0.8}, {}, {{0, 0.2}}, 0, std::nullopt, {}});
  verification::VerificationInput input{"5", "claim", {{"d1", "", {"a", "b", "c"}, 4, 1.5}, {"d2", "", {"x"}, 0, 0.0}}};

  const auto prediction = verification::to_prediction(verdict, &input);
  EXPECT_EQ(prediction.claim_id, "5");
  EXPECT_FALSE(prediction.reason.has_value());
  ASSERT_EQ(prediction.documents.size(), 2u);
  const auto& first = prediction.documents[0];
  EXPECT_EQ(first.doc_id, "d1");
  EXPECT_EQ(first.label, Label::contradict);
  EXPECT_EQ(first.sentences, (std::vector<std::size_t>{2, 0}));
  EXPECT_EQ(*first.probabilities, (std::array<double, 3>{0.2, 0.7, 0.1}));
  EXPECT_EQ(first.sentence_scores->size(), 3u);
  EXPECT_EQ(first.retrieval_rank, std::optional<std::size_t>(4));
  EXPECT_EQ(first.truncated_sentences, std::optional<std::size_t>(1));
  EXPECT_FALSE(prediction.documents[1].retrieval_rank.has_value());  // rank 0: given, not retrieved

  const auto without_input = verification::to_prediction({"6", {}, "no retrieved abstract"});
  EXPECT_TRUE(without_input.documents.empty());
  EXPECT_EQ(without_input.reason, std::optional<std::string>("no retrieved abstract"));

  input.documents[1].doc_id = "d9";
  claimrag::testing::expect_error<InternalError>([&] { (void)verification::to_prediction(verdict, &input); }, "answers input document d9");
}

TEST(VerificationPrediction, ChecksDocumentsAndSentencesAgainstTheAbstracts) {
  const std::vector<dataset::Abstract> abstracts{{"11", "T", {"S0.", "S1."}, false}, {"12", "U", {"S0."}, false}};
  claimrag::testing::TempFolder folder;
  const auto file = folder.write("p.jsonl",
                                 "{\"id\": 1, \"evidence\": {\"11\": {\"label\": \"SUPPORT\", \"sentences\": [1, 0]}}}\n"
                                 "{\"id\": 2, \"evidence\": {\"12\": {\"label\": \"NOT_ENOUGH_INFO\", \"sentences\": [1]}}}\n"
                                 "{\"id\": 3, \"evidence\": {\"99\": {\"label\": \"CONTRADICT\", \"sentences\": []}}}\n"
                                 "{\"id\": 4, \"evidence\": {\"12\": {\"label\": \"SUPPORT\", \"sentences\": [], "
                                 "\"sentence_scores\": [[0, 0.5], [3, 0.1]]}}}\n");
  const auto predictions = verification::read_predictions(file);
  EXPECT_NO_THROW(verification::check_against_abstracts(std::span(predictions).first(1), abstracts, file));
  claimrag::testing::expect_error<DataError>(
      [&] { verification::check_against_abstracts(std::span(predictions).subspan(1, 1), abstracts, file); },
      file.string() + ":2: claim 2: sentence 1 of document 12 does not exist (the abstract has 1)");
  claimrag::testing::expect_error<DataError>(
      [&] { verification::check_against_abstracts(std::span(predictions).subspan(2, 1), abstracts, file); },
      file.string() + ":3: claim 3: document 99 is not in the corpus");
  claimrag::testing::expect_error<DataError>(
      [&] { verification::check_against_abstracts(std::span(predictions).subspan(3, 1), abstracts, file); },
      file.string() + ":4: claim 4: sentence 3 of document 12 does not exist");
}
