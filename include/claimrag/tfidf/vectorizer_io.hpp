#pragma once
// Saving and loading a fitted vectorizer as JSON (terms are strings, so JSON rather than
// safetensors). The file holds what idf is computed from — document count, terms and their
// document frequencies — never the idf itself, so a loaded vectorizer recomputes bit-identical
// idf values. Its fingerprint is stored too and checked on load.
//
// {"format": "claimrag-tfidf-vectorizer", "format_version": 1, "max_features": 50000,
//  "document_count": n, "terms": [...], "document_frequencies": [...], "fingerprint": "..."}

#include <filesystem>

#include "claimrag/tfidf/vectorizer.hpp"

namespace claimrag::tfidf {

/// Writes `vectorizer` to `path` atomically; parent folders are created.
void save(const TfidfVectorizer& vectorizer, const std::filesystem::path& path);

/// Reads a vectorizer written by save. Throws DataError naming the file when it is missing,
/// not JSON, of another format or version, inconsistent, or when its fingerprint differs from
/// the one recomputed from its contents.
TfidfVectorizer load(const std::filesystem::path& path);

}  // namespace claimrag::tfidf
