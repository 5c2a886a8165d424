#pragma once
// The BM25 inverted index: for every term, the documents that contain it and how often. It stores
// raw term frequencies and document lengths, so k1 and b are chosen at query time.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/beir.hpp"
#include "claimrag/text/term_dictionary.hpp"

namespace claimrag::bm25 {

/// Postings in compressed-sparse-row form: the postings of term t are
/// [term_offsets[t], term_offsets[t+1]) of posting_documents / posting_frequencies,
/// in increasing document order.
struct InvertedIndex {
  std::vector<std::string> doc_ids;           ///< corpus order
  std::vector<std::uint32_t> doc_lengths;     ///< tokens of title + " " + text
  std::vector<std::string> terms;             ///< sorted
  std::vector<std::uint64_t> term_offsets;    ///< terms.size() + 1 entries
  std::vector<std::uint32_t> posting_documents;
  std::vector<std::uint32_t> posting_frequencies;
  std::string corpus_checksum;                ///< XXH64 of the corpus file it was built from

  /// Per term, the (frequency, document length) pairs of its postings that no other posting
  /// dominates (a higher or equal frequency in a shorter or equally long document): the BM25 impact
  /// grows with the frequency and falls with the length for every k1, b >= 0, so the term's largest
  /// impact under any parameters is attained at one of them. Term t's pairs are
  /// [bound_offsets[t], bound_offsets[t+1]). Derived from the postings by compute_term_bounds().
  std::vector<std::uint64_t> bound_offsets;
  std::vector<std::uint32_t> bound_frequencies;
  std::vector<std::uint32_t> bound_lengths;

  [[nodiscard]] std::size_t document_count() const { return doc_ids.size(); }
  [[nodiscard]] double average_document_length() const;
  /// The id of `term`, or -1 when no document contains it.
  [[nodiscard]] std::int64_t term_id(std::string_view term) const;
  /// Rebuilds the term lookup table; called by build and load.
  void index_terms();
  /// Recomputes the bound pairs from the postings; called by build and load.
  void compute_term_bounds();

 private:
  text::TermDictionary term_lookup_;  ///< ids equal positions in `terms`
};

/// Tokenizes every document's title + " " + text with the paper's tokenizer and inverts it.
InvertedIndex build_index(const dataset::Corpus& corpus, std::string corpus_checksum);

/// Saves as a checksummed, versioned artefact (kind "bm25-index").
void save_index(const InvertedIndex& index, const std::filesystem::path& path);
/// Loads what save_index wrote; a corrupt, truncated or other-version file is a DataError.
InvertedIndex load_index(const std::filesystem::path& path);

}  // namespace claimrag::bm25
