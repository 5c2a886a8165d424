#pragma once
// Saving and loading a trained dense model and its document matrix as safetensors.
//
// model.safetensors holds the embedding table(s) and, in "__metadata__": format
// ("claimrag-dense"), format_version, the options text and its fingerprint (the config hash),
// dimension, seed, shared_towers, vocabulary_size, vocabulary_checksum, and the vocabulary
// itself (a JSON array of tokens in id order). One file keeps model and vocabulary from ever
// being paired wrongly; the file still opens with safetensors in Python.
// documents.safetensors holds the n × dimension matrix "documents" and the fingerprint of the
// model that encoded it, so a matrix from another model is refused.

#include <filesystem>
#include <string>

#include "claimrag/dense/dual_encoder.hpp"
#include "claimrag/dense/vocabulary.hpp"
#include "claimrag/nn/safetensors.hpp"

namespace claimrag::dense {

inline constexpr const char* kModelFormat = "claimrag-dense";
inline constexpr const char* kDocumentMatrixFormat = "claimrag-dense-documents";
inline constexpr int kDenseFormatVersion = 1;

/// Writes `model` with `vocabulary` (vocabulary.size() == model.vocabulary_size(), else
/// InternalError). `extra` entries (e.g. a training-data checksum) join the metadata; their
/// keys must not clash with the ones above.
void save_model(const std::filesystem::path& path, const DualEncoder<float>& model, const Vocabulary& vocabulary,
                const nn::SafetensorsMetadata& extra = {});

/// A model read back with everything that came with it.
struct LoadedModel {
  Vocabulary vocabulary;
  DualEncoder<float> model;
  nn::SafetensorsMetadata metadata;
};

/// Reads a model saved by save_model and refuses (DataError naming the file and the field) a
/// different format or version, a vocabulary whose checksum does not match, or options whose
/// fingerprint differs from `expected` (the configuration the caller is about to use).
LoadedModel load_model(const std::filesystem::path& path, const DenseOptions& expected);

/// xxh64 (hex) of the options fingerprint, the vocabulary checksum and every parameter's bytes.
std::string model_fingerprint(const DualEncoder<float>& model, const Vocabulary& vocabulary);

/// Writes `documents` (n × dimension) tagged with the fingerprint of the model that encoded it.
void save_document_matrix(const std::filesystem::path& path, const nn::Matrix<float>& documents,
                          const std::string& model_fingerprint, const nn::SafetensorsMetadata& extra = {});

/// Reads a document matrix and refuses (DataError) another format, another model's fingerprint,
/// or a row count other than `expected_rows` (the corpus size).
nn::Matrix<float> load_document_matrix(const std::filesystem::path& path, const std::string& expected_fingerprint,
                                       Eigen::Index expected_rows);

}  // namespace claimrag::dense
