#include "claimrag/tfidf/vectorizer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "claimrag/error.hpp"
#include "claimrag/io/checksum.hpp"
#include "claimrag/parallel_for.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::tfidf {

namespace {

constexpr const char* kSource = "tfidf vectorizer";

bool is_token(std::string_view term) {
  return !term.empty() && std::all_of(term.begin(), term.end(), text::is_token_byte);
}

/// Term and document frequencies of some documents, under provisional ids in order of first
/// appearance.
struct TermCounts {
  text::TermDictionary ids;
  std::vector<std::uint64_t> tf;
  std::vector<std::uint32_t> df;

  std::uint32_t id_of(std::string_view term) {
    const std::uint32_t id = ids.intern(term);
    if (id == tf.size()) {  // a new term
      tf.push_back(0);
      df.push_back(0);
    }
    return id;
  }

  /// Counts documents [begin, end); document frequency is counted through the last document
  /// that incremented it.
  void count(std::span<const std::string> documents, std::size_t begin, std::size_t end) {
    std::vector<std::size_t> last_document;
    for (std::size_t d = begin; d < end; ++d) {
      text::for_each_token(documents[d], [&](std::string_view token) {
        const std::uint32_t id = id_of(token);
        if (id == last_document.size()) last_document.push_back(documents.size());
        ++tf[id];
        if (last_document[id] != d) {
          last_document[id] = d;
          ++df[id];
        }
      });
    }
  }

  /// Adds the counts of other documents (integer sums: the same whatever the grouping).
  void add(const TermCounts& other) {
    for (std::uint32_t other_id = 0; other_id < other.ids.size(); ++other_id) {
      const std::uint32_t id = id_of(other.ids.term(other_id));
      tf[id] += other.tf[other_id];
      df[id] += other.df[other_id];
    }
  }
};

}  // namespace

double smooth_idf(std::size_t document_count, std::uint32_t document_frequency) {
  // The same operations as scikit-learn: both counts shifted by one, divided, then log.
  return std::log(static_cast<double>(document_count + 1) /
                  static_cast<double>(document_frequency + 1)) +
         1.0;
}

std::vector<std::size_t> select_features(std::span<const std::string> terms,
                                         std::span<const std::uint64_t> term_frequencies,
                                         std::size_t max_features) {
  if (terms.size() != term_frequencies.size()) {
    throw InternalError("select_features: one term frequency per term is required");
  }
  std::vector<std::size_t> order(terms.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (max_features == 0 || terms.size() <= max_features) return order;

  // `terms` is alphabetical, so a stable sort by descending frequency breaks ties
  // alphabetically.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return term_frequencies[a] > term_frequencies[b];
  });
  order.resize(max_features);
  std::sort(order.begin(), order.end());
  return order;
}

TfidfVectorizer TfidfVectorizer::fit(std::span<const std::string> documents,
                                     const TfidfOptions& options) {
  if (documents.empty()) throw UsageError("tfidf: cannot fit a vectorizer on zero documents");

  // The documents are counted in shares on the threads and the shares' counts summed; every
  // later step orders the terms alphabetically, so the provisional ids' order does not matter.
  std::vector<TermCounts> shares(kCountingShares);
  parallel_for_shares(documents.size(), kCountingShares,
                      [&](std::size_t share, std::size_t begin, std::size_t end) { shares[share].count(documents, begin, end); });
  TermCounts counts;
  for (const auto& share : shares) counts.add(share);
  const text::TermDictionary& ids = counts.ids;
  const std::vector<std::uint64_t>& tf = counts.tf;
  const std::vector<std::uint32_t>& df = counts.df;
  if (ids.size() == 0) {
    throw DataError(kSource, "empty vocabulary: none of the " + std::to_string(documents.size()) +
                                 " documents has a token");
  }

  const std::vector<std::string>& names = ids.terms();
  std::vector<std::uint32_t> alphabetical(names.size());
  std::iota(alphabetical.begin(), alphabetical.end(), std::uint32_t{0});
  std::sort(alphabetical.begin(), alphabetical.end(),
            [&](std::uint32_t a, std::uint32_t b) { return names[a] < names[b]; });
  std::vector<std::string> sorted_terms;
  std::vector<std::uint64_t> sorted_tf;
  sorted_terms.reserve(names.size());
  sorted_tf.reserve(names.size());
  for (const std::uint32_t id : alphabetical) {
    sorted_terms.push_back(names[id]);
    sorted_tf.push_back(tf[id]);
  }

  TfidfVectorizer vectorizer;
  vectorizer.options_ = options;
  vectorizer.document_count_ = documents.size();
  for (const std::size_t kept : select_features(sorted_terms, sorted_tf, options.max_features)) {
    vectorizer.terms_.push_back(std::move(sorted_terms[kept]));
    vectorizer.df_.push_back(df[alphabetical[kept]]);
  }
  vectorizer.build_index();
  return vectorizer;
}

TfidfVectorizer TfidfVectorizer::from_parts(std::vector<std::string> terms,
                                            std::vector<std::uint32_t> document_frequencies,
                                            std::size_t document_count,
                                            const TfidfOptions& options) {
  if (terms.size() != document_frequencies.size()) {
    throw DataError(kSource, std::to_string(terms.size()) + " terms but " +
                                 std::to_string(document_frequencies.size()) +
                                 " document frequencies");
  }
  if (options.max_features != 0 && terms.size() > options.max_features) {
    throw DataError(kSource, std::to_string(terms.size()) + " terms exceed max_features " +
                                 std::to_string(options.max_features));
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!is_token(terms[i])) {
      throw DataError(kSource, "term " + std::to_string(i) + " \"" + terms[i] +
                                   "\" is not a [a-z0-9]+ token");
    }
    if (i > 0 && !(terms[i - 1] < terms[i])) {
      throw DataError(kSource, "terms are not in strictly increasing order at term " +
                                   std::to_string(i) + " \"" + terms[i] + "\"");
    }
    if (document_frequencies[i] == 0 || document_frequencies[i] > document_count) {
      throw DataError(kSource, "document frequency " + std::to_string(document_frequencies[i]) +
                                   " of \"" + terms[i] + "\" is outside [1, " +
                                   std::to_string(document_count) + "]");
    }
  }
  TfidfVectorizer vectorizer;
  vectorizer.options_ = options;
  vectorizer.document_count_ = document_count;
  vectorizer.terms_ = std::move(terms);
  vectorizer.df_ = std::move(document_frequencies);
  vectorizer.build_index();
  return vectorizer;
}

void TfidfVectorizer::build_index() {
  idf_.resize(terms_.size());
  index_ = text::TermDictionary();
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    idf_[i] = smooth_idf(document_count_, df_[i]);
    index_.intern(terms_[i]);  // distinct and in order, so term i gets id i
  }
}

std::optional<std::uint32_t> TfidfVectorizer::index_of(std::string_view term) const {
  const std::int64_t found = index_.find(term);
  if (found < 0) return std::nullopt;
  return static_cast<std::uint32_t>(found);
}

SparseVector TfidfVectorizer::transform(std::string_view text) const {
  std::vector<std::uint32_t> hits;
  text::for_each_token(text, [&](std::string_view token) {
    const std::int64_t found = index_.find(token);
    if (found >= 0) hits.push_back(static_cast<std::uint32_t>(found));
  });
  std::sort(hits.begin(), hits.end());

  SparseVector vector;
  for (std::size_t k = 0; k < hits.size();) {
    std::size_t end = k;
    while (end < hits.size() && hits[end] == hits[k]) ++end;
    vector.push_back({hits[k], static_cast<double>(end - k) * idf_[hits[k]]});
    k = end;
  }
  const double norm = l2_norm(vector);
  // Divided rather than multiplied by 1/norm, as scikit-learn's row normalisation does.
  for (SparseEntry& entry : vector) entry.value /= norm;
  return vector;
}

std::vector<SparseVector> TfidfVectorizer::transform(std::span<const std::string> texts) const {
  std::vector<SparseVector> vectors;
  vectors.reserve(texts.size());
  for (const std::string& text : texts) vectors.push_back(transform(text));
  return vectors;
}

std::string TfidfVectorizer::fingerprint() const {
  std::string canonical = "tfidf-v1\n" + std::to_string(document_count_) + "\n";
  for (std::size_t i = 0; i < terms_.size(); ++i) {
    canonical += terms_[i];
    canonical += '\t';
    canonical += std::to_string(df_[i]);
    canonical += '\n';
  }
  return io::checksum_hex(canonical);
}

}  // namespace claimrag::tfidf
