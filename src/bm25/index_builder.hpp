#pragma once
// The one builder of BM25 indexes, in memory (build_index) or streamed to a file
// (StreamingIndexBuilder): documents are tokenized one at a time into a term dictionary, document
// lengths and bounded runs of postings (bm25/posting_runs.hpp); finish() sorts the vocabulary and
// merges the runs term by term straight into the image's posting sections, computing each term's
// bound pairs on the way, then writes the rest (bm25/image_writer.hpp).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claimrag/bm25/streaming_build.hpp"
#include "claimrag/text/term_dictionary.hpp"
#include "image_writer.hpp"
#include "posting_runs.hpp"

namespace claimrag::bm25::detail {

/// Where full runs go: temporary files beside `target`, removed when the builder is destroyed.
/// A run ends when its buffer would pass `budget_bytes`, or, once past `small_run_bytes`, when it
/// would hold more than half of every posting seen so far: then the buffer (20 bytes a posting
/// with its sort) stays below the index (8 bytes a posting and more) at any corpus size.
struct RunSpill {
  std::filesystem::path target;
  std::size_t budget_bytes = 0;
  std::size_t small_run_bytes = std::size_t{4} << 20;
};

class IndexBuilder {
 public:
  /// Without `spill`, every posting stays in memory.
  explicit IndexBuilder(std::optional<RunSpill> spill);
  ~IndexBuilder();
  IndexBuilder(const IndexBuilder&) = delete;
  IndexBuilder& operator=(const IndexBuilder&) = delete;

  /// Indexes title + " " + text under `id`, the next document in corpus order.
  void add_document(std::string_view id, std::string_view title, std::string_view text);
  [[nodiscard]] std::size_t document_count() const { return doc_lengths_.size(); }
  [[nodiscard]] std::size_t term_count() const { return terms_.size(); }
  [[nodiscard]] std::uint64_t posting_count() const { return postings_; }
  /// Writes the image to `sink`; returns its size in bytes. Call once. With `shard_of`, the
  /// metadata records what it returns under "shard".
  std::uint64_t finish(ImageSink& sink, std::string corpus_checksum, const ShardMetadataOf& shard_of = {});
  /// Runs written to files so far.
  [[nodiscard]] std::size_t spilled_runs() const { return run_files_.size(); }

 private:
  void spill_run();
  [[nodiscard]] bool run_is_full(std::size_t buffered) const;
  void merge_postings(ImageWriter& writer, const std::vector<std::uint32_t>& order,
                      std::vector<std::unique_ptr<RunCursor>>& runs);

  std::optional<RunSpill> spill_;
  std::size_t max_buffered_ = SIZE_MAX;
  std::vector<std::uint64_t> doc_id_offsets_{0};
  std::string doc_id_text_;
  std::vector<std::uint32_t> doc_lengths_;
  text::TermDictionary terms_;                    ///< provisional ids, in order of first sight
  std::vector<std::uint64_t> document_frequency_;  ///< per provisional id
  std::vector<std::uint32_t> count_in_document_;  ///< scratch, per provisional id
  std::vector<std::uint32_t> seen_;               ///< scratch, this document's terms
  std::uint64_t postings_ = 0;
  PostingBuffer buffer_;
  std::vector<std::filesystem::path> run_files_;
  // Bound pairs of every term, gathered during the merge.
  std::vector<std::uint64_t> bound_offsets_{0};
  std::vector<std::uint32_t> bound_frequencies_;
  std::vector<std::uint32_t> bound_lengths_;
};

}  // namespace claimrag::bm25::detail
