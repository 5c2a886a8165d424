#pragma once
// The one way a verifier is named, on the command line (`--verifier SPEC`) and in configurations
// (`"verifier": "SPEC"`): the same text means the same backend in every subcommand and stage.
//
//   builtin          the verifier claimrag trains itself (lexical features, logistic models)
//   checkpoint:DIR   a pretrained Hugging Face encoder with an NLI head, read from DIR on disk
//   llm:URL          an OpenAI-compatible chat endpoint used as a judge
//   tei:URL          Text Embeddings Inference's /predict with an NLI cross-encoder
//
// Which names exist is the backends' business: experiment::parse_verifier_spec
// (experiment/verification/verifier_backend.hpp) reads SPEC against the registered backends.

#include <string>

namespace claimrag::verification {

/// A parsed SPEC: the backend's name and what follows its colon.
struct VerifierSpec {
  std::string kind = "builtin";  ///< the backend's name: "builtin", "checkpoint", "llm", "tei", ...
  std::string location;          ///< DIR for checkpoint, URL for llm and tei; empty for builtin
};

/// The text the parser reads back: the kind alone without a location ("builtin"), else
/// "KIND:LOCATION" ("checkpoint:DIR", ...).
std::string to_string(const VerifierSpec& spec);

}  // namespace claimrag::verification
