#pragma once
// The statistics that BM25 scores read from the whole corpus: its document count, its total
// length in tokens (the average document length is total / count) and, per term, how many
// documents contain it. A document-sharded index (bm25/shard_index.hpp) indexes a block of the
// corpus but scores with these, so that every shard gives each document the score one index over
// the whole corpus gives it.
//
// On disk (`claimrag bm25-statistics`), a text file: a first line holding a JSON object
//   {"format":"claimrag-bm25-statistics","version":1,"corpus_checksum":C,"documents":N,
//    "total_length":L,"terms":T}
// then T lines `term<TAB>document frequency`, terms in byte order, each frequency in [1, N].

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::bm25 {

struct CollectionStatistics {
  std::string corpus_checksum;  ///< of corpus.jsonl's bytes, as dataset::load_corpus gives it
  std::uint64_t documents = 0;
  std::uint64_t total_length = 0;  ///< tokens of title + " " + text over every document
  std::vector<std::string> terms;  ///< sorted, unique
  std::vector<std::uint64_t> document_frequencies;  ///< per term

  /// How many documents contain `term` (0 when none does).
  [[nodiscard]] std::uint64_t document_frequency(std::string_view term) const;
};

/// Reads a BEIR corpus.jsonl once, line by line, tokenizing as the index does. Bad input is a
/// DataError naming the file and line.
CollectionStatistics compute_statistics(const std::filesystem::path& corpus_jsonl);

/// The file's text (see above); its checksum_hex identifies the statistics.
std::string statistics_text(const CollectionStatistics& statistics);
/// Writes statistics_text atomically.
void write_statistics(const CollectionStatistics& statistics, const std::filesystem::path& path);
/// Reads what write_statistics wrote; anything else is a DataError naming the file and line.
CollectionStatistics read_statistics(const std::filesystem::path& path);

}  // namespace claimrag::bm25
