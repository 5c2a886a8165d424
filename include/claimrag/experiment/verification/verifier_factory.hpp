#pragma once
// The one place a `--verifier SPEC` (verification/verifier_spec.hpp) becomes a ClaimVerifier for
// users' own (claim, evidence) pairs: `verify --pairs`, `ground`, `sufficiency` and
// `interrogate` all open their verifier here.
//
// builtin: the file given as --model when there is one (refused when it is a model of the open
// setting, which needs a retrieval rank), else the free-text verifier (VerifierSetting::free_text):
// trained on SciFact's train claims, their cited abstracts plus, per claim, a BM25 neighbour
// without evidence and a random unrelated abstract as NOT_ENOUGH_INFO, the first time it is
// needed, then cached as
//   <cache>/verifier-free_text-<recipe>-<data>.safetensors
// where <cache> is $XDG_CACHE_HOME/claimrag, else $HOME/.cache/claimrag (neither set: not cached),
// <recipe> the checksum of the names of the feature columns, the verification options, the BM25
// parameters, the seed and the program version, and <data> the checksum of the training data's
// files (SciFact's corpus.jsonl and claims_train.jsonl): any change trains anew. On a machine
// without the training data (and no --original), the one cached model of the same <recipe> is
// used. One log line says what was trained and where it is cached.
// A cached file that cannot be read is trained again and replaced, with a warning.
// checkpoint:DIR: the verifier over the NLI checkpoint in DIR (verification/checkpoint_verifier.hpp)
// with the rule of config.verification.checkpoint (premise, threshold) and
// config.verification.max_rationale; --model and --save-model are refused with it. Its record
// (checkpoint config.json, weight checksums, label map, rule) is written to
// verifier_meta_path(source.record_beside) when that is given.
// llm:URL: the LLM judge (verification/llm_judge_verifier.hpp) over the chat endpoint URL with
// model source.llm_model; tei:URL: Text Embeddings Inference's /predict with an NLI cross-encoder
// (verification/tei_verifier.hpp), decided by the checkpoint rule of config.verification.checkpoint
// in requests of its batch_size pairs, recorded beside the output as a checkpoint's is; --model and
// --save-model are refused with it. Both reach the endpoint through
// served::open_transport(source.served), so they record and replay the same way.

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/served/served_options.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"

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
  /// from the spec by open_verifier).
  served::ServedOptions served = {};
  std::string llm_model = {};       ///< llm:URL: the model name sent to the endpoint (required)
  /// llm:URL: the judge's prompt template (--prompt); empty: kDefaultJudgePrompt.
  std::filesystem::path llm_prompt = {};
};

/// The LLM judge's prompt when --prompt is not given, inside the shipped folder
/// (experiment/shipped_files.hpp's shipped_file).
inline constexpr const char* kDefaultJudgePrompt = "configs/prompts/verifier_judge.txt";

/// `out` with its extension replaced by ".meta.json" ("verdicts.jsonl" → "verdicts.meta.json"):
/// where a command using a checkpoint verifier records it. Commands declare it among their outputs.
std::filesystem::path verifier_meta_path(const std::filesystem::path& out);

/// verifier_meta_path(out) when `spec` names a checkpoint, an LLM judge or tei:URL and `out` is given, else empty: the
/// output a command declares for it (io/output_plan.hpp skips empty paths).
std::filesystem::path verifier_meta_output(const std::string& spec, const std::filesystem::path& out);

/// The checkpoint verifier's options as `config` sets them (see above).
verification::CheckpointVerifierOptions checkpoint_verifier_options(const ExperimentConfig& config);

/// The verifier over the NLI checkpoint in `folder` with checkpoint_verifier_options(config).
std::unique_ptr<verification::ClaimVerifier> open_checkpoint_verifier(const std::filesystem::path& folder,
                                                                      const ExperimentConfig& config);

/// What an output records about the verifier `source` names: {"spec"}, and for a checkpoint also
/// "checkpoint" (NliCheckpoint::record(): folder, config.json, the weight files' XXH64, labels) and
/// "rule" (premise, threshold, max_rationale, max_length); for an LLM judge "model", "prompt" (the
/// file and its XXH64) and "temperature"; for tei:URL "rule" (premise, threshold, max_rationale)
/// and "batch_size" (pairs per /predict request).
nlohmann::ordered_json verifier_record(const VerifierSource& source, const ExperimentConfig& config);

/// How the LLM judge reads an answer without JSON or a label name (llm_judge_verifier.hpp, step 2):
/// the project's response resolution (interrogation/resolution.hpp), as an answer to "does the
/// evidence support the claim?": yes is SUPPORT, no CONTRADICT, a hedge NOT_ENOUGH_INFO, anything
/// unresolved no label (a counted failure).
verification::JudgeTextResolver judge_text_resolution();

/// The cache folder as described above; empty when neither variable is set.
std::filesystem::path verifier_cache_folder();

/// The verifier `source` names. UsageError for a kind this build lacks, for --model with
/// --save-model, or when the free-text verifier must be trained and SciFact's release layout is
/// absent (the message says to run scripts/get-data.sh or to pass --model); DataError for a
/// --model file that is not a free-text or oracle verifier.
std::unique_ptr<verification::ClaimVerifier> open_verifier(const VerifierSource& source, const ExperimentConfig& config);

}  // namespace claimrag::experiment
