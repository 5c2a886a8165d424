#include "claimrag/bm25/index.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/error.hpp"
#include "claimrag/io/artefact.hpp"
#include "claimrag/text/term_dictionary.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::bm25 {
namespace {
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::string_view kKind = "bm25-index";
}  // namespace

double InvertedIndex::average_document_length() const {
  if (doc_lengths.empty()) return 0.0;
  const double total = std::accumulate(doc_lengths.begin(), doc_lengths.end(), 0.0);
  return total / static_cast<double>(doc_lengths.size());
}

std::int64_t InvertedIndex::term_id(std::string_view term) const {
  return term_lookup_.find(term);
}

void InvertedIndex::index_terms() {
  term_lookup_ = text::TermDictionary();
  for (const auto& term : terms) term_lookup_.intern(term);
}

void InvertedIndex::compute_term_bounds() {
  bound_offsets.assign(1, 0);
  bound_frequencies.clear();
  bound_lengths.clear();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> candidates;  // (frequency, length)
  for (std::size_t t = 0; t + 1 < term_offsets.size(); ++t) {
    candidates.clear();
    for (std::uint64_t p = term_offsets[t]; p < term_offsets[t + 1]; ++p) {
      candidates.emplace_back(posting_frequencies[p], doc_lengths[posting_documents[p]]);
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
      bound_frequencies.push_back(frequency);
      bound_lengths.push_back(length);
    }
    bound_offsets.push_back(bound_frequencies.size());
  }
}

InvertedIndex build_index(const dataset::Corpus& corpus, std::string corpus_checksum) {
  InvertedIndex index;
  index.corpus_checksum = std::move(corpus_checksum);
  // First pass: per-document (provisional term id, frequency) pairs, ids in order of first sight.
  text::TermDictionary provisional;
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> document_terms(corpus.documents.size());
  std::vector<std::uint32_t> count_in_document;
  std::vector<std::uint32_t> seen;
  for (std::size_t d = 0; d < corpus.documents.size(); ++d) {
    const auto& document = corpus.documents[d];
    index.doc_ids.push_back(document.id);
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
    index.doc_lengths.push_back(length);
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
    index.terms.push_back(provisional_terms[order[rank]]);
  }
  // Second pass: count postings per term, then fill them in document order.
  index.term_offsets.assign(index.terms.size() + 1, 0);
  for (const auto& terms : document_terms) {
    for (const auto& [term, frequency] : terms) ++index.term_offsets[final_id[term] + 1];
  }
  std::partial_sum(index.term_offsets.begin(), index.term_offsets.end(), index.term_offsets.begin());
  index.posting_documents.resize(index.term_offsets.back());
  index.posting_frequencies.resize(index.term_offsets.back());
  std::vector<std::uint64_t> cursor(index.term_offsets.begin(), index.term_offsets.end() - 1);
  for (std::uint32_t d = 0; d < document_terms.size(); ++d) {
    for (const auto& [term, frequency] : document_terms[d]) {
      const std::uint64_t slot = cursor[final_id[term]]++;
      index.posting_documents[slot] = d;
      index.posting_frequencies[slot] = frequency;
    }
  }
  index.index_terms();
  index.compute_term_bounds();
  return index;
}

void save_index(const InvertedIndex& index, const std::filesystem::path& path) {
  io::BinaryWriter payload;
  payload.put<std::uint64_t>(index.doc_ids.size());
  for (const auto& id : index.doc_ids) payload.put_string(id);
  payload.put_vector(index.doc_lengths);
  payload.put<std::uint64_t>(index.terms.size());
  for (const auto& term : index.terms) payload.put_string(term);
  payload.put_vector(index.term_offsets);
  payload.put_vector(index.posting_documents);
  payload.put_vector(index.posting_frequencies);
  const nlohmann::json metadata = {
      {"documents", index.doc_ids.size()},
      {"terms", index.terms.size()},
      {"postings", index.posting_documents.size()},
      {"corpus_checksum", index.corpus_checksum},
      {"tokenizer", "lowercase [a-z0-9]+ over title + \" \" + text"},
  };
  io::write_artefact(path, kKind, kFormatVersion, metadata, payload.bytes());
}

namespace {

// Every offset, count and id is checked against what the file holds before anything indexes
// with it: a checksum only proves the bytes are the ones written, not that a writer was honest.
void validate(const InvertedIndex& index, std::uint64_t documents, std::uint64_t terms, const std::string& file) {
  const auto fail = [&](const std::string& what) { return DataError(file, "inconsistent index contents: " + what); };
  if (index.doc_lengths.size() != documents) throw fail("document lengths do not match the document count");
  if (index.term_offsets.size() != terms + 1) throw fail("term offsets do not match the term count");
  const std::uint64_t postings = index.posting_documents.size();
  if (index.posting_frequencies.size() != postings) throw fail("posting frequencies do not match the postings");
  if (index.term_offsets.front() != 0 || index.term_offsets.back() != postings) {
    throw fail("term offsets do not span the postings");
  }
  for (std::uint64_t t = 0; t < terms; ++t) {
    const std::uint64_t begin = index.term_offsets[t];
    const std::uint64_t end = index.term_offsets[t + 1];
    if (begin > end || end > postings) throw fail("term offset " + std::to_string(t) + " lies outside the postings");
    if (t > 0 && !(index.terms[t - 1] < index.terms[t])) throw fail("terms are not sorted and unique at " + std::to_string(t));
    for (std::uint64_t p = begin; p < end; ++p) {
      // Search binary-searches a term's postings, so they must be in increasing document order.
      if (index.posting_documents[p] >= documents || (p > begin && index.posting_documents[p] <= index.posting_documents[p - 1])) {
        throw fail("postings of term " + std::to_string(t) + " are out of range or order");
      }
    }
  }
}

}  // namespace

InvertedIndex load_index(const std::filesystem::path& path) {
  const std::string file = path.string();
  const io::Artefact artefact = io::read_artefact(path, kKind, kFormatVersion);
  io::BinaryReader reader(artefact.payload, file);
  InvertedIndex index;
  const auto documents = reader.get<std::uint64_t>();
  for (std::uint64_t d = 0; d < documents; ++d) index.doc_ids.push_back(reader.get_string());
  index.doc_lengths = reader.get_vector<std::uint32_t>();
  const auto terms = reader.get<std::uint64_t>();
  for (std::uint64_t t = 0; t < terms; ++t) index.terms.push_back(reader.get_string());
  index.term_offsets = reader.get_vector<std::uint64_t>();
  index.posting_documents = reader.get_vector<std::uint32_t>();
  index.posting_frequencies = reader.get_vector<std::uint32_t>();
  if (reader.remaining() != 0) throw DataError(file, "inconsistent index contents: bytes after the postings");
  const auto& checksum = artefact.metadata.is_object() ? artefact.metadata.find("corpus_checksum") : artefact.metadata.end();
  if (checksum == artefact.metadata.end() || !checksum->is_string()) {
    throw DataError(file, "metadata has no corpus_checksum string");
  }
  index.corpus_checksum = checksum->get<std::string>();
  validate(index, documents, terms, file);
  index.index_terms();
  index.compute_term_bounds();
  return index;
}

}  // namespace claimrag::bm25
