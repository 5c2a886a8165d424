#pragma once
// Saving and loading a trained verifier as safetensors: every parameter (registration order) as
// an F32 tensor, and in the metadata the format ("claimrag-verifier"), its version, the network
// options as JSON, and the vocabulary's words in id order (after the reserved entries) as a JSON
// array, so a loaded verifier reads text exactly as the saved one did.

#include <filesystem>
#include <memory>

#include "claimrag/nn/safetensors.hpp"
#include "claimrag/verifier/model.hpp"
#include "claimrag/verifier/vocabulary.hpp"

namespace claimrag::verifier {

inline constexpr const char* kVerifierFormat = "claimrag-verifier";
inline constexpr int kVerifierFormatVersion = 1;

/// Writes `model` and `vocabulary` (whose size must equal the model's) with `extra` metadata
/// (keys other than the reserved ones above; InternalError otherwise), atomically.
void save_verifier(const std::filesystem::path& path, const VerifierModel<float>& model, const Vocabulary& vocabulary,
                   const nn::SafetensorsMetadata& extra);

struct LoadedVerifier {
  Vocabulary vocabulary;
  std::unique_ptr<VerifierModel<float>> model;
  nn::SafetensorsMetadata metadata;
};

/// Reads what save_verifier wrote. Another format or version, malformed options or vocabulary,
/// or tensors that do not fit the stored options are DataErrors naming the file.
LoadedVerifier load_verifier(const std::filesystem::path& path);

}  // namespace claimrag::verifier
