#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"

namespace claimrag::experiment {
namespace {

TEST(VerifierSpec, ReadsEachForm) {
  EXPECT_EQ(parse_verifier_spec("builtin").kind, "builtin");
  EXPECT_EQ(parse_verifier_spec("builtin").location, "");
  const auto checkpoint = parse_verifier_spec("checkpoint:models/nli deberta");
  EXPECT_EQ(checkpoint.kind, "checkpoint");
  EXPECT_EQ(checkpoint.location, "models/nli deberta");
  const auto llm = parse_verifier_spec("llm:http://127.0.0.1:8080/v1");
  EXPECT_EQ(llm.kind, "llm");
  EXPECT_EQ(llm.location, "http://127.0.0.1:8080/v1");
  EXPECT_EQ(parse_verifier_spec("tei:https://tei.example/").kind, "tei");
}

TEST(VerifierSpec, RoundTripsThroughText) {
  for (const char* text : {"builtin", "checkpoint:/a/b", "llm:http://x:1/v1", "tei:https://y"})
    EXPECT_EQ(verification::to_string(parse_verifier_spec(text)), text);
}

TEST(VerifierSpec, RefusesWhatIsNoForm) {
  for (const char* text : {"", "Builtin", "checkpoint:", "llm:", "tei:127.0.0.1:80", "llm:ftp://x", "onnx:m"}) {
    try {
      (void)parse_verifier_spec(text);
      ADD_FAILURE() << "accepted \"" << text << "\"";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("checkpoint:DIR"), std::string::npos) << error.what();
    }
  }
}

}  // namespace
}  // namespace claimrag::experiment
