#pragma once
// What a subcommand knows about the verifier it is asked for, before any backend reads it: the
// `--verifier` text and the flags that go with it. Every backend (verifier_backend.hpp) opens its
// verifier from this.

#include <filesystem>
#include <string>

#include "claimrag/served/served_options.hpp"

namespace claimrag::experiment {

/// Where a verifier for free text comes from.
struct VerifierSource {
  std::string spec;                 ///< --verifier; empty means builtin
  std::filesystem::path model;      ///< --model: a saved verifier, used instead of the cached one
  std::filesystem::path original;   ///< SciFact release layout to train on; empty: config.data.original
  std::filesystem::path save_model; ///< also save the verifier here (optional; not with --model)
  /// The command's main output: a checkpoint verifier's record (verifier_record) is written
  /// beside it, to verifier_meta_path(record_beside). Empty: not written.
  std::filesystem::path record_beside;
  /// llm:URL and tei:URL: the endpoint's rules, recording and replay (served.endpoint.url is set
  /// from the spec by the backend).
  served::ServedOptions served = {};
  std::string llm_model = {};       ///< llm:URL: the model name sent to the endpoint (required)
  /// llm:URL: the judge's prompt template (--prompt); empty: kDefaultJudgePrompt.
  std::filesystem::path llm_prompt = {};
};

/// The LLM judge's prompt when --prompt is not given, inside the shipped folder
/// (experiment/shipped_files.hpp's shipped_file).
inline constexpr const char* kDefaultJudgePrompt = "configs/prompts/verifier_judge.txt";

}  // namespace claimrag::experiment
