// Sealing an index image (bm25/index_format.hpp), and opening one: what is checked when, and how a
// term's postings are checked on first use. Images are laid out by bm25/image_writer.hpp.

#include <bit>
#include <cstring>

#include "claimrag/bm25/index.hpp"
#include "claimrag/bm25/index_format.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"

namespace claimrag::bm25 {

static_assert(std::endian::native == std::endian::little, "the index is read in place as little-endian arrays");

namespace {

format::IndexHeader read_header(std::span<const std::byte> image) {
  format::IndexHeader header;
  std::memcpy(&header, image.data() + format::kPrefixBytes, sizeof header);
  return header;
}

void write_header(std::span<std::byte> image, const format::IndexHeader& header) {
  std::memcpy(image.data() + format::kPrefixBytes, &header, sizeof header);
}

/// Where a section may be read: inside the image and 8-byte aligned.
bool section_fits(const format::SectionEntry& entry, std::uint64_t image_bytes) {
  return entry.offset % 8 == 0 && entry.offset >= format::kHeaderBytes && entry.offset <= image_bytes &&
         entry.bytes <= image_bytes - entry.offset;
}

}  // namespace

namespace format {

void seal(std::span<std::byte> image) {
  if (image.size() < kHeaderBytes) return;
  IndexHeader header = read_header(image);
  const SectionEntry& sums = header.sections[kBlockChecksums];
  if (header.block_bytes == 0 || !section_fits(sums, image.size())) return;
  const std::uint64_t slots = sums.bytes / 8;
  for (std::size_t s = 0; s < kBlockChecksums; ++s) {
    const SectionEntry& entry = header.sections[s];
    if (!section_fits(entry, image.size())) continue;
    const std::uint64_t blocks = block_count(entry.bytes, header.block_bytes);
    for (std::uint64_t b = 0; b < blocks && entry.first_block < slots && b < slots - entry.first_block; ++b) {
      const std::uint64_t begin = b * header.block_bytes;
      const std::uint64_t size = std::min(header.block_bytes, entry.bytes - begin);
      const std::uint64_t sum = io::xxh64(image.subspan(entry.offset + begin, size));
      std::memcpy(image.data() + sums.offset + (entry.first_block + b) * 8, &sum, 8);
    }
  }
  header.block_checksums_checksum = io::xxh64(image.subspan(sums.offset, sums.bytes));
  write_header(image, header);
  header.header_checksum = io::xxh64(image.first(kHeaderBytes - 8));
  write_header(image, header);
}

}  // namespace format

InvertedIndex::InvertedIndex() = default;
InvertedIndex::~InvertedIndex() = default;
InvertedIndex::InvertedIndex(InvertedIndex&&) noexcept = default;
InvertedIndex& InvertedIndex::operator=(InvertedIndex&&) noexcept = default;

std::span<const std::byte> InvertedIndex::image() const {
  if (const auto* words = std::get_if<std::vector<std::uint64_t>>(&storage_)) {
    return {reinterpret_cast<const std::byte*>(words->data()), words->size() * 8};
  }
  return std::get<io::MappedFile>(storage_).bytes();
}

InvertedIndex InvertedIndex::from_built_image(std::vector<std::uint64_t> image) {
  InvertedIndex index;
  index.storage_ = std::move(image);
  index.attach(index.image(), "(index built in memory)", /*trusted=*/true);
  return index;
}

InvertedIndex InvertedIndex::open_file(const std::filesystem::path& path) {
  InvertedIndex index;
  index.storage_ = io::MappedFile(path);
  index.attach(index.image(), path.string(), /*trusted=*/false);
  return index;
}

std::span<const std::uint32_t> InvertedIndex::bound_frequencies(std::uint32_t t) const {
  return bound_frequencies_.subspan(bound_offsets_[t], bound_offsets_[t + 1] - bound_offsets_[t]);
}

std::span<const std::uint32_t> InvertedIndex::bound_lengths(std::uint32_t t) const {
  return bound_lengths_.subspan(bound_offsets_[t], bound_offsets_[t + 1] - bound_offsets_[t]);
}

PostingList InvertedIndex::postings(std::uint32_t t) const {
  if (term_checked_[t].load(std::memory_order_acquire) == 0) check_postings(t);
  const std::uint64_t begin = posting_offsets_[t];
  const std::uint64_t size = posting_offsets_[t + 1] - begin;
  return {posting_documents_.subspan(begin, size), posting_frequencies_.subspan(begin, size)};
}

}  // namespace claimrag::bm25
