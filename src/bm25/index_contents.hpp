#pragma once
// The arrays of an index as a builder produces them, before they are laid out as an image.

#include <cstdint>
#include <string>
#include <vector>

namespace claimrag::bm25::detail {

struct IndexContents {
  std::vector<std::uint64_t> doc_id_offsets{0};
  std::string doc_id_text;
  std::vector<std::uint32_t> doc_lengths;
  std::vector<std::uint64_t> term_text_offsets{0};
  std::string term_text;
  std::vector<std::uint64_t> posting_offsets{0};
  std::vector<std::uint32_t> posting_documents;
  std::vector<std::uint32_t> posting_frequencies;
  std::vector<std::uint64_t> bound_offsets{0};
  std::vector<std::uint32_t> bound_frequencies;
  std::vector<std::uint32_t> bound_lengths;
  std::string metadata;  ///< JSON text
};

/// Appends the undominated (frequency, length) pairs of each term's postings to the bound arrays
/// (see InvertedIndex::bound_frequencies).
void compute_term_bounds(IndexContents& contents);

/// Lays `contents` out in the format of bm25/index_format.hpp, sealed.
std::vector<std::uint64_t> write_image(const IndexContents& contents);

}  // namespace claimrag::bm25::detail
