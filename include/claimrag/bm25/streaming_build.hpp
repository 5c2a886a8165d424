#pragma once
// Building a BM25 index file without holding the corpus or its postings in memory: documents are
// added one at a time, postings are buffered up to a budget and spilled as sorted runs to
// temporary files beside the index, and finish() merges the runs term by term straight into the
// file. The file is byte-identical to save_index(build_index(corpus, checksum)) for the same
// documents, whatever the budget. Memory: the term dictionary, the document ids and lengths, the
// run buffer (at most `run_budget_bytes`) and a buffer per run during the merge.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::bm25 {

struct StreamingBuildOptions {
  /// The most bytes of buffered postings (20 a posting, with their sort) before a run is spilled.
  /// A run is also spilled, once past 4 MB, when it would hold more than half of the postings
  /// seen so far, so that the buffer stays below the index's size on corpora of any size.
  std::size_t run_budget_bytes = std::size_t{256} << 20;
  /// The size below which a run is never spilled early (tests lower it to force many runs).
  std::size_t small_run_bytes = std::size_t{4} << 20;
};

/// What a finished build wrote.
struct StreamingBuildSummary {
  std::uint64_t documents = 0;
  std::uint64_t terms = 0;
  std::uint64_t postings = 0;
  std::uint64_t index_bytes = 0;
  std::size_t runs = 0;  ///< runs spilled to temporary files (0: everything fit the budget)
};

/// For one shard of a document-sharded index (bm25/shard_index.hpp): the metadata's "shard"
/// object, given the index's terms in their saved (byte) order.
using ShardMetadataOf = std::function<nlohmann::json(const std::vector<std::string_view>& sorted_terms)>;

namespace detail {
class IndexBuilder;
}

class StreamingIndexBuilder {
 public:
  /// Nothing is written to `index_path` until finish(); temporaries go beside it.
  explicit StreamingIndexBuilder(std::filesystem::path index_path, StreamingBuildOptions options = {});
  /// Without finish() (an exception, say), removes every temporary file and leaves `index_path`
  /// as it was.
  ~StreamingIndexBuilder();
  StreamingIndexBuilder(const StreamingIndexBuilder&) = delete;
  StreamingIndexBuilder& operator=(const StreamingIndexBuilder&) = delete;

  /// Indexes title + " " + text under `id`, the next document in corpus order.
  void add_document(std::string_view id, std::string_view title, std::string_view text);
  /// Writes the index (to a temporary file renamed onto the path) and removes the runs. Call once.
  /// With `shard_of`, the index is a shard and its metadata records what that returns.
  StreamingBuildSummary finish(std::string corpus_checksum, const ShardMetadataOf& shard_of = {});

 private:
  std::filesystem::path index_path_;
  std::unique_ptr<detail::IndexBuilder> builder_;
};

/// Indexes a BEIR corpus.jsonl read once, line by line, recording the checksum of its bytes (the
/// same value dataset::load_corpus gives). Bad input is a DataError naming the file and line, as
/// load_corpus reports it; then neither the index nor any temporary file is left behind.
StreamingBuildSummary write_index_streaming(const std::filesystem::path& corpus_jsonl,
                                            const std::filesystem::path& index_path,
                                            const StreamingBuildOptions& options = {});

}  // namespace claimrag::bm25
