// The whole grounding checker against the independent Python reference of MiniCheck's scoring
// (scripts/fixtures/checker_fixtures.py): on checkpoints with the published configurations of
// MiniCheck-RoBERTa-Large and MiniCheck-DeBERTa-v3-Large (sizes shrunk, two labels, random
// weights, the real tokenizer files) and MiniCheck-Flan-T5-Large (chunks by words, "predict: ", the
// label tokens 3 and 209; a tiny spiece.model in T5's layout), for documents of several chunks, a sentence longer than a
// chunk, blank lines and a document shorter than one sentence, the chunks, each sequence's token
// ids, each chunk's P(supported) and the chosen chunk equal the reference's.

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/pretrained/model_config.hpp"
#include "claimrag/verification/checker_verifier.hpp"
#include "claimrag/verification/verify_inputs.hpp"
#include "pretrained_fixture.hpp"

namespace claimrag::verification {
namespace {

class CheckerParity : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckerParity, ChunksIdsScoresAndChoiceEqualTheReference) {
  const auto expected = nlohmann::json::parse(
      io::read_file(std::filesystem::path(CLAIMRAG_SOURCE_DIR) / "tests/fixtures/checker" / (GetParam() + ".json")));
  const auto folder = testing::fixture_checkpoint(GetParam());
  const auto family = known_checker_settings(pretrained::read_model_config(folder).model_type);
  auto checkpoint = std::make_shared<const NliCheckpoint>(folder, std::vector<std::string>{"unsupported", "supported"},
                                                          family.label_tokens);
  const auto eos = expected.at("eos").get<std::string>();
  const auto prefix = expected.value("prefix", std::string());
  EXPECT_EQ(prefix, family.prefix);
  const auto max_length = expected.at("max_length").get<std::size_t>();
  std::size_t compared = 0;
  double worst = 0.0;
  for (const auto& reference : expected.at("cases")) {
    const auto what = reference.at("what").get<std::string>();
    CheckerOptions options;
    options.chunk_size = reference.at("chunk_size").get<std::size_t>();
    const auto verifier = make_checker_verifier(checkpoint, options);
    VerificationInput input{"c", reference.at("claim").get<std::string>(), {}};
    EvidenceDocument document;
    document.doc_id = "d";
    document.text = reference.at("document").get<std::string>();
    document.sentences = evidence_sentences(document.text);
    input.documents.push_back(document);
    const auto verdict = verifier->verify(std::span<const VerificationInput>(&input, 1)).at(0).documents.at(0);

    const auto chunks = reference.at("chunks").get<std::vector<std::string>>();
    ASSERT_EQ(verdict.chunks.size(), chunks.size()) << what;
    const auto scores = reference.at("scores").get<std::vector<double>>();
    const auto ids = reference.at("input_ids").get<std::vector<std::vector<std::int32_t>>>();
    for (std::size_t k = 0; k < chunks.size(); ++k) {
      EXPECT_EQ(verdict.chunks[k].text, chunks[k]) << what << " chunk " << k;
      const auto encoded = checkpoint->text_model().tokenizer().encode(prefix + chunks[k] + eos + input.claim, std::nullopt, max_length);
      EXPECT_EQ(encoded.input_ids, ids[k]) << what << " chunk " << k;
      EXPECT_NEAR(verdict.chunks[k].score, scores[k], 1e-5) << what << " chunk " << k;
      worst = std::max(worst, std::abs(verdict.chunks[k].score - scores[k]));
      ++compared;
    }
    const auto chosen = reference.at("chosen").get<std::size_t>();
    EXPECT_NEAR(verdict.probabilities[0], reference.at("max_score").get<double>(), 1e-5) << what;
    EXPECT_EQ(verdict.label, verdict.probabilities[0] > 0.5 ? Label::support : Label::not_enough_info);
    // The rationale is the chosen chunk's sentences: each lies in it.
    for (const std::size_t s : verdict.rationale) {
      EXPECT_NE(chunks[chosen].find(document.sentences[s].substr(0, 12)), std::string::npos) << what;
    }
    EXPECT_FALSE(verdict.rationale.empty()) << what;
  }
  EXPECT_GE(compared, 20U);
  std::ostringstream shown;
  shown << std::scientific << worst;
  RecordProperty("max_abs_difference", shown.str());
}

INSTANTIATE_TEST_SUITE_P(MiniCheckShapes, CheckerParity,
                         ::testing::Values("real-minicheck-roberta-large", "real-minicheck-deberta-v3-large", "real-flan-t5-large"));

TEST(CheckerVerifier, RefusesWhatItCannotRead) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("real-minicheck-roberta-large"),
                                                          std::vector<std::string>{"unsupported", "supported"});
  CheckerOptions options;
  options.chunk_size = 600;  // above the 512 positions
  EXPECT_THROW((void)make_checker_verifier(checkpoint, options), UsageError);
  options = {};
  options.threshold = 1.0;
  EXPECT_THROW((void)make_checker_verifier(checkpoint, options), UsageError);
  options = {};
  options.kind = CheckerKind::nli;
  EXPECT_THROW((void)make_checker_verifier(checkpoint, options), InternalError);
  EXPECT_THROW((void)parse_checker_kind("summac"), UsageError);
}

TEST(CheckerVerifier, AlignScoreAveragesTheClaimSentencesBestChunks) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("real-minicheck-roberta-large"),
                                                          std::vector<std::string>{"unsupported", "supported"});
  const std::string claim_a = "Aspirin lowers the risk of colorectal cancer.";
  const std::string claim_b = "Smoking increases lung cancer risk.";
  EvidenceDocument document;
  document.doc_id = "d";
  document.text = "Aspirin inhibits cyclooxygenase. Daily aspirin did not reduce cancer.\n\nSmokers had a higher risk.";
  document.sentences = evidence_sentences(document.text);
  CheckerOptions options;
  options.chunk_size = 8;
  const auto minicheck = make_checker_verifier(checkpoint, options);
  const auto best_of = [&](const std::string& claim) {
    const VerificationInput input{"c", claim, {document}};
    return minicheck->verify(std::span<const VerificationInput>(&input, 1)).at(0).documents.at(0);
  };
  const auto a = best_of(claim_a), b = best_of(claim_b);
  options.kind = CheckerKind::alignscore;
  const auto alignscore = make_checker_verifier(checkpoint, options);
  const VerificationInput both{"c", claim_a + " " + claim_b, {document}};
  const auto verdict = alignscore->verify(std::span<const VerificationInput>(&both, 1)).at(0).documents.at(0);
  ASSERT_GE(a.chunks.size(), 2U);
  EXPECT_NEAR(verdict.probabilities[0], (a.probabilities[0] + b.probabilities[0]) / 2, 1e-12);
  EXPECT_NEAR(verdict.probabilities[2], 1.0 - verdict.probabilities[0], 1e-12);
  EXPECT_EQ(verdict.probabilities[1], 0.0);
}

TEST(CheckerVerifier, SameBytesForAnyBatchSize) {
  auto checkpoint = std::make_shared<const NliCheckpoint>(testing::fixture_checkpoint("real-minicheck-deberta-v3-large"),
                                                          std::vector<std::string>{"unsupported", "supported"});
  std::vector<VerificationInput> inputs;
  for (int i = 0; i < 5; ++i) {
    EvidenceDocument document;
    document.doc_id = "d" + std::to_string(i);
    document.text = std::string(static_cast<std::size_t>(i + 1) * 30, 'a') + ". Then a second sentence. And a third one.";
    document.sentences = evidence_sentences(document.text);
    inputs.push_back({"c" + std::to_string(i), "The claim number " + std::to_string(i) + ".", {document}});
  }
  std::vector<std::vector<double>> runs;
  for (const std::size_t batch : {1U, 3U, 32U}) {
    CheckerOptions options;
    options.chunk_size = 12;
    options.batch_size = batch;
    std::vector<double> scores;
    for (const auto& verdict : make_checker_verifier(checkpoint, options)->verify(inputs)) {
      for (const auto& chunk : verdict.documents.at(0).chunks) scores.push_back(chunk.score);
    }
    runs.push_back(scores);
  }
  EXPECT_EQ(runs[0], runs[1]);
  EXPECT_EQ(runs[0], runs[2]);
}

}  // namespace
}  // namespace claimrag::verification
