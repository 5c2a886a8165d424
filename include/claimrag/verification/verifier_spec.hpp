#pragma once
// The one way a verifier is named, on the command line (`--verifier SPEC`) and in configurations
// (`"verifier": "SPEC"`): the same text means the same backend in every subcommand and stage.
//
//   builtin          the verifier claimrag trains itself (lexical features, logistic models)
//   checkpoint:DIR   a pretrained Hugging Face encoder with an NLI head, read from DIR on disk
//   llm:URL          an OpenAI-compatible chat endpoint used as a judge
//   tei:URL          Text Embeddings Inference's /predict with an NLI cross-encoder

#include <string>
#include <string_view>

namespace claimrag::verification {

enum class VerifierKind { builtin, checkpoint, llm, tei };

struct VerifierSpec {
  VerifierKind kind = VerifierKind::builtin;
  std::string location;  ///< DIR for checkpoint, URL for llm and tei; empty for builtin
};

/// Parses SPEC as above. UsageError quoting the text and listing the four forms when it is none
/// of them, or when DIR / URL is empty; an llm or tei URL must start with http:// or https://.
VerifierSpec parse_verifier_spec(std::string_view text);

/// The text parse_verifier_spec reads back: "builtin", "checkpoint:DIR", ...
std::string to_string(const VerifierSpec& spec);

}  // namespace claimrag::verification
