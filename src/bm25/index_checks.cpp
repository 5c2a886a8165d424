// Opening an index image: what is checked before anything reads it (header, section table, the
// small tables), and the checks of one term's postings on their first use.

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <numeric>

#include "claimrag/bm25/index.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/json_depth.hpp"
#include "claimrag/io/checksum.hpp"
#include "shard_metadata.hpp"

namespace claimrag::bm25 {
namespace {

template <typename T>
T read_at(std::span<const std::byte> image, std::size_t at) {
  T value;
  std::memcpy(&value, image.data() + at, sizeof value);
  return value;
}

template <typename T>
std::span<const T> section_array(std::span<const std::byte> image, const format::SectionEntry& entry) {
  return {reinterpret_cast<const T*>(image.data() + entry.offset), entry.bytes / sizeof(T)};
}

/// Offsets that start at 0, never fall, and end at `end`.
bool spans_exactly(std::span<const std::uint64_t> offsets, std::uint64_t end) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != end) return false;
  return std::adjacent_find(offsets.begin(), offsets.end(), std::greater<>()) == offsets.end();
}

/// The bytes each fixed-width section must hold; text sections (SIZE_MAX) may hold any.
std::array<std::uint64_t, format::kSectionCount> expected_bytes(const format::IndexHeader& h) {
  std::array<std::uint64_t, format::kSectionCount> bytes{};
  bytes.fill(UINT64_MAX);
  bytes[format::kDocIdOffsets] = (h.documents + 1) * 8;
  bytes[format::kDocLengths] = h.documents * 4;
  bytes[format::kTermTextOffsets] = (h.terms + 1) * 8;
  bytes[format::kPostingOffsets] = (h.terms + 1) * 8;
  bytes[format::kPostingDocuments] = h.postings * 4;
  bytes[format::kPostingFrequencies] = h.postings * 4;
  bytes[format::kBoundOffsets] = (h.terms + 1) * 8;
  bytes[format::kBoundFrequencies] = h.bound_pairs * 4;
  bytes[format::kBoundLengths] = h.bound_pairs * 4;
  return bytes;
}

}  // namespace

void InvertedIndex::attach(std::span<const std::byte> image, const std::string& source, bool trusted) {
  source_ = source;
  const auto fail = [&](const std::string& what) { return DataError(source, what); };
  const auto inconsistent = [&](const std::string& what) { return DataError(source, "inconsistent index contents: " + what); };
  if (image.size() < format::kMagic.size() || std::memcmp(image.data(), format::kMagic.data(), format::kMagic.size()) != 0) {
    throw fail("not a claimrag artefact (no CLAIMRAG header)");
  }
  if (image.size() < format::kVersionAt + 4) throw fail("truncated: the file ends before its header does");
  if (read_at<std::uint32_t>(image, 8) != format::kKind.size() ||
      std::memcmp(image.data() + format::kKindAt, format::kKind.data(), format::kKind.size()) != 0) {
    throw fail("is not a BM25 index");
  }
  if (const auto version = read_at<std::uint32_t>(image, format::kVersionAt); version != format::kVersion) {
    throw fail("format version " + std::to_string(version) + ", this claimrag reads " + std::to_string(format::kVersion) +
               ": rebuild it");
  }
  if (image.size() < format::kHeaderBytes) throw fail("truncated: the file ends before its header does");
  format::IndexHeader header;
  std::memcpy(&header, image.data() + format::kPrefixBytes, sizeof header);
  if (io::xxh64(image.first(format::kHeaderBytes - 8)) != header.header_checksum) {
    throw fail("checksum mismatch in the header: the file is corrupt");
  }
  // Every count is bounded by the file size before any product of it is formed.
  if (header.documents > UINT32_MAX || header.terms > UINT32_MAX || header.postings > image.size() / 4 ||
      header.bound_pairs > image.size() / 4 || header.block_bytes == 0 || header.block_bytes > (1u << 30)) {
    throw inconsistent("counts out of range");
  }
  const auto expected = expected_bytes(header);
  std::uint64_t blocks = 0;
  for (std::size_t s = 0; s < format::kSectionCount; ++s) {
    const format::SectionEntry& entry = header.sections[s];
    const bool fits = entry.offset % 8 == 0 && entry.offset >= format::kHeaderBytes && entry.offset <= image.size() &&
                      entry.bytes <= image.size() - entry.offset;
    const std::uint64_t want = s == format::kBlockChecksums ? blocks * 8 : expected[s];
    if (!fits || (want != UINT64_MAX && entry.bytes != want) || (s != format::kBlockChecksums && entry.first_block != blocks)) {
      throw inconsistent("section " + std::to_string(s) + " lies outside the file or has the wrong size");
    }
    if (s != format::kBlockChecksums) blocks += format::block_count(entry.bytes, header.block_bytes);
  }
  // Sections follow each other in order with only the zeros that align them between: every byte
  // of the file is then covered by a checksum or checked here.
  std::uint64_t end = format::kHeaderBytes;
  for (const format::SectionEntry& entry : header.sections) {
    if (entry.offset < end || entry.offset - end >= 8 ||
        std::any_of(image.begin() + static_cast<long>(end), image.begin() + static_cast<long>(entry.offset),
                    [](std::byte b) { return b != std::byte{0}; })) {
      throw inconsistent("sections are not laid out in order");
    }
    end = entry.offset + entry.bytes;
  }
  if (end != image.size()) throw inconsistent("bytes after the last section");
  sections_ = header.sections;
  block_bytes_ = header.block_bytes;
  block_checksums_ = section_array<std::uint64_t>(image, sections_[format::kBlockChecksums]);
  if (!trusted && io::xxh64(image.subspan(sections_[format::kBlockChecksums].offset, sections_[format::kBlockChecksums].bytes)) !=
                      header.block_checksums_checksum) {
    throw fail("checksum mismatch in the block checksums: the file is corrupt");
  }
  block_checked_ = std::make_unique<std::atomic<std::uint8_t>[]>(blocks);
  term_checked_ = std::make_unique<std::atomic<std::uint8_t>[]>(header.terms);
  for (std::size_t s = 0; s < format::kBlockChecksums; ++s) {
    const bool postings = s == format::kPostingDocuments || s == format::kPostingFrequencies;
    if (!trusted && !postings) check_blocks(s, 0, sections_[s].bytes);
  }
  const auto text_of = [&](std::size_t s) {
    return std::string_view(reinterpret_cast<const char*>(image.data() + sections_[s].offset), sections_[s].bytes);
  };
  const auto doc_id_offsets = section_array<std::uint64_t>(image, sections_[format::kDocIdOffsets]);
  const auto term_text_offsets = section_array<std::uint64_t>(image, sections_[format::kTermTextOffsets]);
  posting_offsets_ = section_array<std::uint64_t>(image, sections_[format::kPostingOffsets]);
  bound_offsets_ = section_array<std::uint64_t>(image, sections_[format::kBoundOffsets]);
  bound_frequencies_ = section_array<std::uint32_t>(image, sections_[format::kBoundFrequencies]);
  bound_lengths_ = section_array<std::uint32_t>(image, sections_[format::kBoundLengths]);
  if (!trusted) {
    if (!spans_exactly(doc_id_offsets, sections_[format::kDocIdText].bytes)) throw inconsistent("document id offsets");
    if (!spans_exactly(term_text_offsets, sections_[format::kTermText].bytes)) throw inconsistent("term offsets in the term text");
    if (!spans_exactly(posting_offsets_, header.postings)) throw inconsistent("term offsets do not span the postings");
    if (!spans_exactly(bound_offsets_, header.bound_pairs)) throw inconsistent("bound offsets do not span the bound pairs");
  }
  doc_ids_ = StringColumn(doc_id_offsets, text_of(format::kDocIdText));
  terms_ = StringColumn(term_text_offsets, text_of(format::kTermText));
  doc_lengths_ = section_array<std::uint32_t>(image, sections_[format::kDocLengths]);
  posting_documents_ = section_array<std::uint32_t>(image, sections_[format::kPostingDocuments]);
  posting_frequencies_ = section_array<std::uint32_t>(image, sections_[format::kPostingFrequencies]);
  if (trusted) {
    for (std::uint64_t t = 0; t < header.terms; ++t) term_checked_[t].store(1, std::memory_order_relaxed);
  } else {
    for (std::uint32_t t = 0; t < header.terms; ++t) {
      if (t > 0 && !(terms_[t - 1] < terms_[t])) throw inconsistent("terms are not sorted and unique at " + std::to_string(t));
      const auto frequencies = bound_frequencies(t);
      const auto lengths = bound_lengths(t);
      for (std::size_t i = 0; i < frequencies.size(); ++i) {
        if (frequencies[i] == 0 || (i > 0 && (frequencies[i] >= frequencies[i - 1] || lengths[i] >= lengths[i - 1]))) {
          throw inconsistent("the bound pairs of term " + std::to_string(t) + " are out of order");
        }
      }
    }
  }
  try {
    const auto metadata = nlohmann::json::parse(io::depth_checked(text_of(format::kMetadata), source));
    const auto checksum = metadata.is_object() ? metadata.find("corpus_checksum") : metadata.end();
    if (checksum == metadata.end() || !checksum->is_string()) throw fail("metadata has no corpus_checksum string");
    corpus_checksum_ = checksum->get<std::string>();
    if (const auto shard = metadata.find("shard"); shard != metadata.end()) {
      shard_ = detail::read_shard_metadata(*shard, source, doc_lengths_.size(), posting_offsets_);
    }
  } catch (const nlohmann::json::exception& error) {
    throw fail(std::string("unreadable metadata: ") + error.what());
  }
  const double total = std::accumulate(doc_lengths_.begin(), doc_lengths_.end(), 0.0);
  average_document_length_ = doc_lengths_.empty() ? 0.0 : total / static_cast<double>(doc_lengths_.size());
  // The same division of the same integers as an index over the whole corpus makes, so equal bits.
  collection_average_document_length_ =
      !shard_ ? average_document_length_
      : shard_->collection_documents == 0
          ? 0.0
          : static_cast<double>(shard_->collection_total_length) / static_cast<double>(shard_->collection_documents);
}

void InvertedIndex::check_blocks(std::size_t section, std::uint64_t begin_byte, std::uint64_t end_byte) const {
  if (begin_byte >= end_byte) return;
  const format::SectionEntry& entry = sections_[section];
  const auto image = this->image();
  for (std::uint64_t b = begin_byte / block_bytes_; b <= (end_byte - 1) / block_bytes_; ++b) {
    const std::uint64_t slot = entry.first_block + b;
    if (block_checked_[slot].load(std::memory_order_acquire) != 0) continue;
    const std::uint64_t begin = b * block_bytes_;
    const std::uint64_t size = std::min(block_bytes_, entry.bytes - begin);
    if (io::xxh64(image.subspan(entry.offset + begin, size)) != block_checksums_[slot]) {
      throw DataError(source_, "checksum mismatch in section " + std::to_string(section) + " at byte " +
                                   std::to_string(entry.offset + begin) + ": the file is corrupt");
    }
    block_checked_[slot].store(1, std::memory_order_release);
  }
}

void InvertedIndex::check_postings(std::uint32_t t) const {
  const std::uint64_t begin = posting_offsets_[t];
  const std::uint64_t end = posting_offsets_[t + 1];
  check_blocks(format::kPostingDocuments, begin * 4, end * 4);
  check_blocks(format::kPostingFrequencies, begin * 4, end * 4);
  const auto inconsistent = [&](const std::string& what) {
    return DataError(source_, "inconsistent index contents: " + what + " of term " + std::to_string(t));
  };
  const auto bound_frequency = bound_frequencies(t);
  const auto bound_length = bound_lengths(t);
  for (std::uint64_t p = begin; p < end; ++p) {
    // Search binary-searches a term's postings, so they must be in increasing document order.
    const std::uint32_t document = posting_documents_[p];
    if (document >= doc_lengths_.size() || (p > begin && document <= posting_documents_[p - 1])) {
      throw inconsistent("postings are out of range or order");
    }
    const std::uint32_t frequency = posting_frequencies_[p];
    if (frequency == 0) throw inconsistent("a posting with frequency 0");
    // Pruning trusts the bounds: some pair must have a frequency >= this one and a length <= this
    // document's. The pairs with frequency >= f are a prefix, and its last pair is the shortest.
    const auto covering = std::partition_point(bound_frequency.begin(), bound_frequency.end(),
                                               [&](std::uint32_t f) { return f >= frequency; });
    const auto count = static_cast<std::size_t>(covering - bound_frequency.begin());
    if (count == 0 || bound_length[count - 1] > doc_lengths_[document]) {
      throw inconsistent("the bound pairs do not cover the postings");
    }
  }
  term_checked_[t].store(1, std::memory_order_release);
}

}  // namespace claimrag::bm25
