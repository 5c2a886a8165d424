#pragma once
// Saving and loading a reranker model as safetensors, so that Python can open it
// (safetensors.safe_open, or by hand: u64 little-endian header length, JSON header, raw tensors):
//
//   "weights"    F64 [kFeatureCount]  in the order of __metadata__.feature_names
//   "intercept"  F64 [1]
//   "__metadata__" (strings only, as safetensors requires):
//     format "claimrag-rerank-model", format_version "1",
//     feature_names "bm25,tfidf_cosine,jaccard,doc_length,query_length",
//     corpus_checksum, tfidf_fingerprint, tfidf_max_features, bm25_k1, bm25_b,
//     C, class_weight ("balanced"|"none"), train_split, train_depth,
//     training_queries, training_rows, training_positives,
//     fit_intercept, intercept_scaling, newton_iterations, converged, objective,
//     claimrag_checksum (io/safetensors_checksum.hpp: a damaged file is refused at load)
// Numbers are written in their shortest exact decimal form, so a load gives back the same bits.

#include <filesystem>

#include "claimrag/rerank/reranker.hpp"

namespace claimrag::rerank {

inline constexpr const char* kModelFormat = "claimrag-rerank-model";
inline constexpr int kModelFormatVersion = 1;

/// Writes `model` to `path` atomically; parent folders are created.
void save_model(const RerankerModel& model, const std::filesystem::path& path);

/// Reads a model written by save_model. Throws DataError naming the file when it is missing, not
/// safetensors, damaged (checksum), of another format or version, or inconsistent (a missing or
/// malformed field, tensor shapes that do not match the feature names, a NaN or infinite number). Compatibility with the data at hand is
/// check_compatible's job.
RerankerModel load_model(const std::filesystem::path& path);

}  // namespace claimrag::rerank
