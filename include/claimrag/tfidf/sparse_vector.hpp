#pragma once
// Sparse vectors as TF-IDF produces them: (feature index, value) pairs sorted by index, with no
// repeated index and no stored zero. Values are float64, as scikit-learn's TfidfVectorizer
// returns by default; a SciFact abstract has ~130 distinct terms, so a whole corpus of vectors
// stays near 10 MB and single precision would save nothing that matters.

#include <cstdint>
#include <vector>

namespace claimrag::tfidf {

/// One stored coordinate of a sparse vector.
struct SparseEntry {
  std::uint32_t index;
  double value;
  friend bool operator==(const SparseEntry&, const SparseEntry&) = default;
};

/// Entries sorted by strictly increasing index; absent indices are zero.
using SparseVector = std::vector<SparseEntry>;

/// Σ a_i·b_i over the indices both vectors store, accumulated in increasing index order.
/// Precondition: both vectors sorted by strictly increasing index.
double dot(const SparseVector& a, const SparseVector& b);

/// Euclidean norm, accumulated in increasing index order.
double l2_norm(const SparseVector& a);

/// dot(a, b) / (‖a‖·‖b‖); 0 when either vector is all zeros (as scikit-learn's
/// cosine_similarity gives for an empty row). For two L2-normalised TF-IDF vectors this is
/// their dot product up to rounding.
double cosine(const SparseVector& a, const SparseVector& b);

/// True when indices are strictly increasing (the invariant every function here assumes).
bool is_sorted_strictly(const SparseVector& a);

}  // namespace claimrag::tfidf
