#pragma once
// The sentence-transformers pipeline of an embedding model's folder: `modules.json` lists the
// modules (Transformer, Pooling, Normalize); the Pooling module's `config.json` says how token
// states become one vector (CLS token, mean, max, mean divided by sqrt(length), concatenated in
// that order when several are set).

#include <filesystem>
#include <string>

#include "claimrag/nn/parameter.hpp"

namespace claimrag::pretrained {

struct SentencePooling {
  bool cls_token = false;
  bool max_tokens = false;
  bool mean_tokens = false;
  bool mean_sqrt_len_tokens = false;
  bool normalize = false;  ///< a Normalize module follows: the vector is divided by its L2 norm
  std::string description;  ///< "mean, normalised", for messages and records
};

/// True when `folder` holds a modules.json.
bool has_sentence_modules(const std::filesystem::path& folder);

/// Reads modules.json and the Pooling module's config.json. DataError naming the file for a
/// missing Pooling module, a module type other than Transformer, Pooling and Normalize (a Dense
/// projection, say), no pooling mode set, or a mode claimrag does not compute.
SentencePooling read_sentence_pooling(const std::filesystem::path& folder);

/// The sentence vector of token states [tokens, hidden] (no padding: every row is a token).
nn::Matrix<float> pool_tokens(const SentencePooling& pooling, const nn::Matrix<float>& states);

}  // namespace claimrag::pretrained
