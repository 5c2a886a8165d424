// The verifier backends' registry: a backend added from this file alone, by one registration line,
// is read by the one spec parser, opened by open_verifier (behind the wordless-claim guard every
// backend gets), recorded beside the output and listed in the parser's message; the shipped
// backends keep their names and order, and a name is registered once.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_factory.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/verification/wordless_claims.hpp"
#include "support/temp_folder.hpp"

namespace claimrag::experiment {
namespace {

namespace cv = claimrag::verification;

// A test backend, `constant:LABEL`: every document gets LABEL with certainty.
class ConstantVerifier : public cv::ClaimVerifier {
 public:
  explicit ConstantVerifier(cv::Label label) : label_(label) {}
  std::vector<cv::ClaimVerdict> verify(std::span<const cv::VerificationInput> inputs) const override {
    std::vector<cv::ClaimVerdict> verdicts;
    for (const auto& input : inputs) {
      cv::ClaimVerdict verdict{input.claim_id, {}, {}};
      for (const auto& document : input.documents) {
        cv::DocumentVerdict judged;
        judged.doc_id = document.doc_id;
        judged.label = label_;
        judged.probabilities[static_cast<std::size_t>(label_)] = 1.0;
        verdict.documents.push_back(std::move(judged));
      }
      verdicts.push_back(std::move(verdict));
    }
    return verdicts;
  }
  void save(const std::filesystem::path&) const override { throw UsageError("a constant verifier is not saved"); }

 private:
  cv::Label label_;
};

VerifierBackend constant_verifier_backend() {
  return {.kind = "constant",
          .location = SpecLocation::folder,
          .open = [](const VerifierSource&, const cv::VerifierSpec& spec, const ExperimentConfig&)
              -> std::unique_ptr<cv::ClaimVerifier> { return std::make_unique<ConstantVerifier>(cv::parse_label(spec.location)); },
          .describe = [](nlohmann::ordered_json& record, const VerifierSource&, const cv::VerifierSpec& spec,
                         const ExperimentConfig&) { record["label"] = spec.location; },
          .records_beside = true};
}

// The one registration line a new backend needs.
const bool kConstantBackendRegistered = register_verifier_backend(constant_verifier_backend());

std::vector<cv::VerificationInput> registry_test_inputs() {
  return {{"c1", "aspirin shrinks tumours", {{"d1", "t", {"Aspirin shrank tumours."}}}}, {"c2", "?!", {{"d2", "t", {"Anything."}}}}};
}

TEST(VerifierRegistry, ABackendFromOneFileIsParsedOpenedGuardedAndRecorded) {
  ASSERT_TRUE(kConstantBackendRegistered);
  const auto spec = parse_verifier_spec("constant:CONTRADICT");
  EXPECT_EQ(spec.kind, "constant");
  EXPECT_EQ(spec.location, "CONTRADICT");
  EXPECT_EQ(cv::to_string(spec), "constant:CONTRADICT");

  testing::TempFolder folder;
  VerifierSource source;
  source.spec = "constant:CONTRADICT";
  source.record_beside = folder.path() / "verdicts.jsonl";
  const ExperimentConfig config;
  const auto verdicts = open_verifier(source, config)->verify(registry_test_inputs());
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].documents.at(0).label, cv::Label::contradict);
  // open_verifier puts every backend behind the guard: the wordless claim never reaches it.
  EXPECT_EQ(verdicts[1].documents.at(0).label, cv::Label::not_enough_info);
  EXPECT_EQ(verdicts[1].reason, cv::kClaimWithoutWord);

  EXPECT_EQ(verifier_meta_output(source.spec, source.record_beside), folder.path() / "verdicts.meta.json");
  const auto meta = nlohmann::json::parse(io::read_file(folder.path() / "verdicts.meta.json"));
  EXPECT_EQ(meta["verifier"]["spec"], "constant:CONTRADICT");
  EXPECT_EQ(meta["verifier"]["label"], "CONTRADICT");
}

TEST(VerifierRegistry, TheParserKnowsTheShippedFormsFirstThenTheAddedOnes) {
  ASSERT_TRUE(kConstantBackendRegistered);
  std::vector<std::string> kinds;
  for (const auto& backend : verifier_backends()) kinds.push_back(backend.kind);
  ASSERT_GE(kinds.size(), 5u);
  EXPECT_EQ(std::vector<std::string>(kinds.begin(), kinds.begin() + 4),
            (std::vector<std::string>{"builtin", "checkpoint", "llm", "tei"}));
  for (const char* text : {"constant", "constant:", "onnx:m"}) {
    try {
      (void)parse_verifier_spec(text);
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("checkpoint:DIR, llm:URL, tei:URL"), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("constant:DIR"), std::string::npos) << error.what();
    }
  }
}

TEST(VerifierRegistry, ANameIsRegisteredOnceAndMustBeAName) {
  EXPECT_THROW((void)register_verifier_backend(constant_verifier_backend()), InternalError);
  auto unnamed = constant_verifier_backend();
  unnamed.kind = "with:colon";
  EXPECT_THROW((void)register_verifier_backend(unnamed), InternalError);
  auto without_opener = constant_verifier_backend();
  without_opener.kind = "openerless";
  without_opener.open = {};
  EXPECT_THROW((void)register_verifier_backend(without_opener), InternalError);
}

}  // namespace
}  // namespace claimrag::experiment
