#include "claimrag/bm25/index.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "claimrag/io/atomic_file.hpp"
#include "claimrag/text/term_dictionary.hpp"
#include "claimrag/text/tokenizer.hpp"
#include "index_contents.hpp"

namespace claimrag::bm25 {

namespace detail {

void compute_term_bounds(IndexContents& contents) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;  // (frequency, length)
  for (std::size_t t = 0; t + 1 < contents.posting_offsets.size(); ++t) {
    candidates.clear();
    for (std::uint64_t p = contents.posting_offsets[t]; p < contents.posting_offsets[t + 1]; ++p) {
      candidates.emplace_back(contents.posting_frequencies[p], contents.doc_lengths[contents.posting_documents[p]]);
    }
    // Highest frequency first, shortest first among equals; keep a pair only when it is shorter
    // than every pair kept before it (which all have higher or equal frequencies).
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    std::uint64_t shortest = UINT64_MAX;
    for (const auto& [frequency, length] : candidates) {
      if (length >= shortest) continue;
      shortest = length;
      contents.bound_frequencies.push_back(frequency);
      contents.bound_lengths.push_back(length);
    }
    contents.bound_offsets.push_back(contents.bound_frequencies.size());
  }
}

}  // namespace detail

std::int64_t InvertedIndex::term_id(std::string_view term) const {
  std::size_t low = 0;
  std::size_t high = terms_.size();
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (terms_[middle] < term) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low < terms_.size() && terms_[low] == term ? static_cast<std::int64_t>(low) : -1;
}

InvertedIndex build_index(const dataset::Corpus& corpus, std::string corpus_checksum) {
  detail::IndexContents contents;
  // First pass: per-document (provisional term id, frequency) pairs, ids in order of first sight.
  text::TermDictionary provisional;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> document_terms(corpus.documents.size());
  std::vector<std::uint32_t> count_in_document;
  std::vector<std::uint32_t> seen;
  for (std::size_t d = 0; d < corpus.documents.size(); ++d) {
    const auto& document = corpus.documents[d];
    contents.doc_id_text += document.id;
    contents.doc_id_offsets.push_back(contents.doc_id_text.size());
    seen.clear();
    std::uint32_t length = 0;
    auto visit = [&](std::string_view token) {
      ++length;
      const std::uint32_t term = provisional.intern(token);
      if (term == count_in_document.size()) count_in_document.push_back(0);
      if (count_in_document[term]++ == 0) seen.push_back(term);
    };
    text::for_each_token(document.title, visit);
    text::for_each_token(document.text, visit);
    contents.doc_lengths.push_back(length);
    document_terms[d].reserve(seen.size());
    for (const std::uint32_t term : seen) {
      document_terms[d].emplace_back(term, count_in_document[term]);
      count_in_document[term] = 0;
    }
  }
  const auto& provisional_terms = provisional.terms();
  // Renumber terms in sorted order so that the saved index does not depend on hash order.
  std::vector<std::uint32_t> order(provisional_terms.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return provisional_terms[a] < provisional_terms[b]; });
  std::vector<std::uint32_t> final_id(order.size());
  for (std::uint32_t rank = 0; rank < order.size(); ++rank) {
    final_id[order[rank]] = rank;
    contents.term_text += provisional_terms[order[rank]];
    contents.term_text_offsets.push_back(contents.term_text.size());
  }
  // Second pass: count postings per term, then fill them in document order.
  contents.posting_offsets.assign(order.size() + 1, 0);
  for (const auto& terms : document_terms) {
    for (const auto& [term, frequency] : terms) ++contents.posting_offsets[final_id[term] + 1];
  }
  std::partial_sum(contents.posting_offsets.begin(), contents.posting_offsets.end(), contents.posting_offsets.begin());
  contents.posting_documents.resize(contents.posting_offsets.back());
  contents.posting_frequencies.resize(contents.posting_offsets.back());
  std::vector<std::uint64_t> cursor(contents.posting_offsets.begin(), contents.posting_offsets.end() - 1);
  for (std::uint32_t d = 0; d < document_terms.size(); ++d) {
    for (const auto& [term, frequency] : document_terms[d]) {
      const std::uint64_t slot = cursor[final_id[term]]++;
      contents.posting_documents[slot] = d;
      contents.posting_frequencies[slot] = frequency;
    }
  }
  document_terms = {};
  detail::compute_term_bounds(contents);
  contents.metadata = nlohmann::json{
      {"documents", contents.doc_lengths.size()},
      {"terms", order.size()},
      {"postings", contents.posting_documents.size()},
      {"corpus_checksum", std::move(corpus_checksum)},
      {"tokenizer", "lowercase [a-z0-9]+ over title + \" \" + text"},
  }.dump();
  return InvertedIndex::from_built_image(detail::write_image(contents));
}

void save_index(const InvertedIndex& index, const std::filesystem::path& path) {
  const auto image = index.image();
  io::AtomicFile file(path, /*binary=*/true);
  file.stream().write(reinterpret_cast<const char*>(image.data()), static_cast<std::streamsize>(image.size()));
  file.commit();
}

InvertedIndex load_index(const std::filesystem::path& path) { return InvertedIndex::open_file(path); }

}  // namespace claimrag::bm25
