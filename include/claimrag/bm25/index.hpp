#pragma once
// The BM25 inverted index: for every term, the documents that contain it and how often. It stores
// raw term frequencies and document lengths, so k1 and b are chosen at query time. An index is a
// view over one image in the layout of bm25/index_format.hpp, held either in memory (just built)
// or memory-mapped from a file (loaded): opening reads the header and the small tables, never the
// postings, which are checked term by term the first time they are read.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "claimrag/bm25/index_format.hpp"
#include "claimrag/dataset/beir.hpp"
#include "claimrag/io/mapped_file.hpp"

namespace claimrag::bm25 {

/// Strings stored back to back with their u64 start offsets (one more offset than strings).
class StringColumn {
 public:
  StringColumn() = default;
  StringColumn(std::span<const std::uint64_t> offsets, std::string_view text) : offsets_(offsets), text_(text) {}
  [[nodiscard]] std::size_t size() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  /// Precondition: i < size().
  [[nodiscard]] std::string_view operator[](std::size_t i) const {
    return text_.substr(offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  /// Every string in order, as string_views.
  [[nodiscard]] auto all() const {
    return std::views::iota(std::size_t{0}, size()) | std::views::transform([this](std::size_t i) { return (*this)[i]; });
  }

 private:
  std::span<const std::uint64_t> offsets_;
  std::string_view text_;
};

/// One term's postings, in increasing document order, each frequency >= 1.
struct PostingList {
  std::span<const std::uint32_t> documents;
  std::span<const std::uint32_t> frequencies;
  [[nodiscard]] std::size_t size() const { return documents.size(); }
};

/// What one shard of a document-sharded index (bm25/shard_index.hpp) records of the whole corpus,
/// so that it scores as one index over the whole corpus would.
struct IndexShard {
  std::uint64_t shard = 0;   ///< K, in [0, shards)
  std::uint64_t shards = 1;  ///< N
  std::uint64_t first_document = 0;  ///< the corpus position of the shard's document 0
  std::uint64_t collection_documents = 0;
  std::uint64_t collection_total_length = 0;
  std::string statistics_checksum;  ///< of the statistics file's text (bm25/collection_statistics.hpp)
  std::vector<std::uint64_t> document_frequencies;  ///< per term of the shard: documents of the whole corpus holding it
};

class InvertedIndex {
 public:
  InvertedIndex();
  ~InvertedIndex();
  InvertedIndex(InvertedIndex&&) noexcept;
  InvertedIndex& operator=(InvertedIndex&&) noexcept;

  [[nodiscard]] std::size_t document_count() const { return doc_lengths_.size(); }
  [[nodiscard]] std::size_t term_count() const { return terms_.size(); }
  [[nodiscard]] std::uint64_t posting_count() const { return posting_documents_.size(); }
  [[nodiscard]] const StringColumn& doc_ids() const { return doc_ids_; }  ///< corpus order
  [[nodiscard]] std::span<const std::uint32_t> doc_lengths() const { return doc_lengths_; }
  [[nodiscard]] const StringColumn& terms() const { return terms_; }  ///< sorted, unique
  [[nodiscard]] double average_document_length() const { return average_document_length_; }
  [[nodiscard]] const std::string& corpus_checksum() const { return corpus_checksum_; }
  /// The id of `term` (its position in terms()), or -1 when no document contains it.
  [[nodiscard]] std::int64_t term_id(std::string_view term) const;
  /// How many documents contain term t. Precondition: t < term_count().
  [[nodiscard]] std::uint64_t document_frequency(std::uint32_t t) const { return posting_offsets_[t + 1] - posting_offsets_[t]; }

  /// The shard's record when this index is one shard of a document-sharded index, else nullptr.
  [[nodiscard]] const IndexShard* shard() const { return shard_ ? &*shard_ : nullptr; }
  /// What BM25 scores read: the whole corpus's figures for a shard, this index's own otherwise.
  [[nodiscard]] std::uint64_t collection_document_count() const { return shard_ ? shard_->collection_documents : document_count(); }
  [[nodiscard]] double collection_average_document_length() const { return collection_average_document_length_; }
  /// Precondition: t < term_count().
  [[nodiscard]] std::uint64_t collection_document_frequency(std::uint32_t t) const {
    return shard_ ? shard_->document_frequencies[t] : document_frequency(t);
  }

  /// Term t's postings. The first call for a term of a loaded index checks their bytes against
  /// the file's checksums, their order and range, and that the term's bound pairs dominate them;
  /// damage is a DataError naming the file. Thread-safe. Precondition: t < term_count().
  [[nodiscard]] PostingList postings(std::uint32_t t) const;

  /// Per term, the (frequency, document length) pairs of its postings that no other posting
  /// dominates (a higher or equal frequency in a shorter or equally long document), highest
  /// frequency first: the BM25 impact grows with the frequency and falls with the length for every
  /// k1, b >= 0, so the term's largest impact under any parameters is attained at one of them.
  [[nodiscard]] std::span<const std::uint32_t> bound_frequencies(std::uint32_t t) const;
  [[nodiscard]] std::span<const std::uint32_t> bound_lengths(std::uint32_t t) const;

  /// The image in the layout of bm25/index_format.hpp (what save_index writes).
  [[nodiscard]] std::span<const std::byte> image() const;

  /// Views `image` (built in memory, trusted) as an index.
  static InvertedIndex from_built_image(std::vector<std::uint64_t> image);
  /// Maps and opens the index file `path` (see load_index).
  static InvertedIndex open_file(const std::filesystem::path& path);

 private:
  void attach(std::span<const std::byte> image, const std::string& source, bool trusted);
  void check_postings(std::uint32_t t) const;
  void check_blocks(std::size_t section, std::uint64_t begin_byte, std::uint64_t end_byte) const;

  std::variant<std::vector<std::uint64_t>, io::MappedFile> storage_;
  std::string source_;  ///< the file, for error messages
  StringColumn doc_ids_;
  std::span<const std::uint32_t> doc_lengths_;
  StringColumn terms_;
  std::span<const std::uint64_t> posting_offsets_;
  std::span<const std::uint32_t> posting_documents_;
  std::span<const std::uint32_t> posting_frequencies_;
  std::span<const std::uint64_t> bound_offsets_;
  std::span<const std::uint32_t> bound_frequencies_;
  std::span<const std::uint32_t> bound_lengths_;
  std::span<const std::uint64_t> block_checksums_;
  std::array<format::SectionEntry, format::kSectionCount> sections_{};
  std::uint64_t block_bytes_ = 0;
  double average_document_length_ = 0.0;
  double collection_average_document_length_ = 0.0;
  std::string corpus_checksum_;
  std::optional<IndexShard> shard_;
  /// Per term and per posting-section block: 1 once checked. Atomic so that concurrent readers
  /// may check the same term twice but never read a half-checked one as checked.
  std::unique_ptr<std::atomic<std::uint8_t>[]> term_checked_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> block_checked_;
};

/// Tokenizes every document's title + " " + text with the paper's tokenizer and inverts it, in
/// memory. The streaming builder (bm25/streaming_build.hpp) is the same code writing to a file.
InvertedIndex build_index(const dataset::Corpus& corpus, std::string corpus_checksum);

/// Saves the index's image atomically (temporary file, then rename).
void save_index(const InvertedIndex& index, const std::filesystem::path& path);
/// Maps what save_index wrote. The header, the tables of document ids, lengths, terms, offsets and
/// bound pairs are checked here (checksums, sizes, order); a corrupt, truncated or other-version
/// file is a DataError naming it. Postings are checked by InvertedIndex::postings() on first use.
InvertedIndex load_index(const std::filesystem::path& path);

}  // namespace claimrag::bm25
