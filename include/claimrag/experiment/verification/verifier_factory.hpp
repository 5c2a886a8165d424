#pragma once
// The one place a `--verifier SPEC` becomes a ClaimVerifier for users' own (claim, evidence)
// pairs: `verify --pairs`, `ground`, `sufficiency` and `interrogate` all open their verifier here.
// open_verifier parses SPEC, finds its backend in the registry (verifier_backend.hpp), lets the
// backend open it, writes the backend's record beside the command's output when it keeps one, and
// wraps the verifier in guard_wordless_claims. What each backend does is in its own file:
//
// builtin (builtin_verifier_backend.cpp, free_text_verifier.hpp): the file given as --model when
// there is one, else the free-text verifier trained on SciFact's train claims the first time it
// is needed, then cached (free_text_verifier.hpp says how it is keyed).
// checkpoint:DIR (checkpoint_verifier_backend.cpp): the verifier over the NLI checkpoint in DIR
// (verification/checkpoint_verifier.hpp) with the rule of config.verification.checkpoint (premise,
// threshold) and config.verification.max_rationale, or its stacked variant; --model and
// --save-model are refused with it. Its record (checkpoint config.json, weight checksums, label
// map, rule) is written to verifier_meta_path(source.record_beside) when that is given.
// llm:URL (llm_verifier_backend.cpp): the LLM judge (verification/llm_judge_verifier.hpp) over the
// chat endpoint URL with model source.llm_model; tei:URL (tei_verifier_backend.cpp): Text
// Embeddings Inference's /predict with an NLI cross-encoder (verification/tei_verifier.hpp),
// decided by the checkpoint rule of config.verification.checkpoint in requests of its batch_size
// pairs, recorded beside the output as a checkpoint's is; --model and --save-model are refused
// with both. Both reach the endpoint through served::open_transport(source.served), so they
// record and replay the same way.

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/verification/verifier_backend.hpp"
#include "claimrag/experiment/verification/verifier_source.hpp"
#include "claimrag/verification/checkpoint_verifier.hpp"
#include "claimrag/verification/llm_judge_verifier.hpp"

namespace claimrag::experiment {

/// `out` with its extension replaced by ".meta.json" ("verdicts.jsonl" → "verdicts.meta.json"):
/// where a command using a checkpoint verifier records it. Commands declare it among their outputs.
std::filesystem::path verifier_meta_path(const std::filesystem::path& out);

/// verifier_meta_path(out) when `spec`'s backend records itself beside the output (checkpoint, an
/// LLM judge, tei:URL) and `out` is given, else empty: the output a command declares for it
/// (io/output_plan.hpp skips empty paths).
std::filesystem::path verifier_meta_output(const std::string& spec, const std::filesystem::path& out);

/// The checkpoint verifier's options as `config` sets them (see above).
verification::CheckpointVerifierOptions checkpoint_verifier_options(const ExperimentConfig& config);

/// The verifier over the NLI checkpoint in `folder` with checkpoint_verifier_options(config).
std::unique_ptr<verification::ClaimVerifier> open_checkpoint_verifier(const std::filesystem::path& folder,
                                                                      const ExperimentConfig& config);

/// What an output records about the verifier `source` names: {"spec"}, then its backend's fields:
/// for a checkpoint "checkpoint" (NliCheckpoint::record(): folder, config.json, the weight files'
/// XXH64, labels), "stacked" and "rule" (premise, threshold, max_rationale, max_length); for an LLM
/// judge "model", "prompt" (the file and its XXH64), "temperature" and "dropped_citations" (0 here;
/// the record beside the output is rewritten as the count grows); for tei:URL "rule" (premise,
/// threshold, max_rationale) and "batch_size" (pairs per /predict request).
nlohmann::ordered_json verifier_record(const VerifierSource& source, const ExperimentConfig& config);

/// How the LLM judge reads an answer without JSON or a label name (llm_judge_verifier.hpp, step 2):
/// the project's response resolution (interrogation/resolution.hpp), as an answer to "does the
/// evidence support the claim?": yes is SUPPORT, no CONTRADICT, a hedge NOT_ENOUGH_INFO, anything
/// unresolved no label (a counted failure).
verification::JudgeTextResolver judge_text_resolution();

/// The free-text verifier's cache folder: $XDG_CACHE_HOME/claimrag, else $HOME/.cache/claimrag;
/// empty when neither variable is set.
std::filesystem::path verifier_cache_folder();

/// The verifier `source` names, behind guard_wordless_claims. UsageError for a SPEC no backend
/// reads, for --model with --save-model, or when the free-text verifier must be trained and
/// SciFact's release layout is absent (the message says to run scripts/get-data.sh or to pass
/// --model); DataError for a --model file that is not a free-text or oracle verifier.
std::unique_ptr<verification::ClaimVerifier> open_verifier(const VerifierSource& source, const ExperimentConfig& config);

}  // namespace claimrag::experiment
