#pragma once
// The "shard" object of a shard index's metadata (bm25/index_format.hpp's kMetadata section):
// written by the shard builder, read and checked when the index is opened.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "claimrag/bm25/index.hpp"

namespace claimrag::bm25::detail {

/// The JSON object recording `shard` (its document_frequencies aligned with the index's terms).
nlohmann::json shard_metadata(const IndexShard& shard);

/// Reads the object back for an index of `documents` documents whose term t has the postings
/// [posting_offsets[t], posting_offsets[t + 1]). A DataError naming `source` when a field is
/// missing or disagrees with the index (a whole-corpus frequency below the shard's own, a block
/// beyond the corpus).
IndexShard read_shard_metadata(const nlohmann::json& object, const std::string& source, std::uint64_t documents,
                               std::span<const std::uint64_t> posting_offsets);

}  // namespace claimrag::bm25::detail
