#pragma once
// The on-disk layout of a BM25 index (format version 2), read in place through a memory map:
//
//   bytes [0, 32)     "CLAIMRAG" | u32 10 | "bm25-index" | u32 version | 6 zero bytes
//                     (format 1's container prefix, so an older claimrag names the version it meets)
//   bytes [32, 400)   IndexHeader: counts, checksum block size, the section table, the checksum of
//                     the block-checksum section, and the XXH64 of the header bytes before it
//   sections          each at an 8-byte-aligned offset, raw little-endian arrays (see Section)
//
// Every section but the block-checksum one is cut into blocks of `block_bytes`; the XXH64 of
// block i of section s is block_checksums[first_block(s) + i]. The header, the block-checksum
// section and every section but the posting arrays are checked when the index is opened; a term's
// postings are checked the first time they are read, so opening does not read them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace claimrag::bm25::format {

inline constexpr std::string_view kMagic = "CLAIMRAG";
inline constexpr std::string_view kKind = "bm25-index";
inline constexpr std::size_t kKindAt = 12;  ///< after the magic and the u32 kind length
inline constexpr std::size_t kVersionAt = kKindAt + kKind.size();
inline constexpr std::uint32_t kVersion = 2;
inline constexpr std::size_t kPrefixBytes = 32;
inline constexpr std::uint64_t kBlockBytes = 64 * 1024;

/// The sections in file order, with their element types.
enum Section : std::size_t {
  kDocIdOffsets,        ///< u64 × (documents + 1), byte offsets into kDocIdText
  kDocIdText,           ///< the document ids, concatenated
  kDocLengths,          ///< u32 × documents, tokens of title + " " + text
  kTermTextOffsets,     ///< u64 × (terms + 1), byte offsets into kTermText
  kTermText,            ///< the terms in sorted order, concatenated
  kPostingOffsets,      ///< u64 × (terms + 1): term t's postings are [offsets[t], offsets[t + 1])
  kPostingDocuments,    ///< u32 × postings, increasing within a term
  kPostingFrequencies,  ///< u32 × postings, each >= 1
  kBoundOffsets,        ///< u64 × (terms + 1): term t's bound pairs are [offsets[t], offsets[t + 1])
  kBoundFrequencies,    ///< u32 × bound pairs, strictly decreasing within a term
  kBoundLengths,        ///< u32 × bound pairs, strictly decreasing within a term
  kMetadata,            ///< JSON object: corpus_checksum, tokenizer
  kBlockChecksums,      ///< u64 per block of every section before it, in section order
  kSectionCount
};

struct SectionEntry {
  std::uint64_t offset = 0;       ///< from the start of the file, a multiple of 8
  std::uint64_t bytes = 0;
  std::uint64_t first_block = 0;  ///< its first checksum in kBlockChecksums
};

/// What follows the prefix. Plain data, copied out of the file before use.
struct IndexHeader {
  std::uint64_t documents = 0;
  std::uint64_t terms = 0;
  std::uint64_t postings = 0;
  std::uint64_t bound_pairs = 0;
  std::uint64_t block_bytes = kBlockBytes;
  std::array<SectionEntry, kSectionCount> sections{};
  std::uint64_t block_checksums_checksum = 0;  ///< XXH64 of the kBlockChecksums section
  std::uint64_t header_checksum = 0;           ///< XXH64 of every file byte before this field
};

inline constexpr std::size_t kHeaderBytes = kPrefixBytes + sizeof(IndexHeader);
static_assert(sizeof(IndexHeader) == 8 * (5 + 3 * kSectionCount + 2), "IndexHeader must have no padding");

/// Blocks of `bytes` bytes cut into pieces of `block_bytes`.
[[nodiscard]] inline std::uint64_t block_count(std::uint64_t bytes, std::uint64_t block_bytes) {
  return (bytes + block_bytes - 1) / block_bytes;
}

/// Recomputes, in place, every checksum of an index image whose header and section table are
/// readable (block checksums, then the header's); leaves other bytes alone. For tests that forge
/// contents behind valid checksums (the builder computes them as it writes, src/bm25/image_writer).
void seal(std::span<std::byte> image);

}  // namespace claimrag::bm25::format
