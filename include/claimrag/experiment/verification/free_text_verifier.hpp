#pragma once
// The built-in backend's free-text verifier (VerifierSetting::free_text): trained on SciFact's
// train claims, their cited abstracts plus, per claim, a BM25 neighbour without evidence and a
// random unrelated abstract as NOT_ENOUGH_INFO, the first time it is needed, then cached as
//   <cache>/verifier-free_text-<recipe>-<data>.safetensors
// where <cache> is verifier_cache_folder() (neither variable set: not cached), <recipe> the
// checksum of the names of the feature columns, the verification options, the BM25 parameters,
// the seed and the program version, and <data> the checksum of the training data's files
// (SciFact's corpus.jsonl and claims_train.jsonl): any change trains anew. On a machine without
// the training data (and no --original), the one cached model of the same <recipe> is used. One
// log line says what was trained and where it is cached. A cached file that cannot be read is
// trained again and replaced, with a warning.

#include <filesystem>
#include <memory>

#include "claimrag/experiment/config.hpp"
#include "claimrag/experiment/verification/verifier_source.hpp"
#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/trained_verifier.hpp"

namespace claimrag::experiment {

/// The free-text verifier's training data, and the claims file it came from.
struct FreeTextTraining {
  verification::VerifierTrainingData data;
  std::filesystem::path claims_file;  ///< SciFact's claims_train.jsonl that was read
};

/// The training data from --original, else config.data.original. UsageError when SciFact's release
/// files are missing there (the message says to run scripts/get-data.sh or to pass --model).
FreeTextTraining free_text_training(const VerifierSource& source, const ExperimentConfig& config);

/// The free-text verifier: the cached one, else trained (and cached), as described above.
std::unique_ptr<verification::ClaimVerifier> open_free_text_verifier(const VerifierSource& source,
                                                                     const ExperimentConfig& config);

}  // namespace claimrag::experiment
