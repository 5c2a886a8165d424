#include "claimrag/tfidf/sparse_vector.hpp"

#include <cmath>

namespace claimrag::tfidf {

double dot(const SparseVector& a, const SparseVector& b) {
  double sum = 0.0;
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (i->index < j->index) {
      ++i;
    } else if (j->index < i->index) {
      ++j;
    } else {
      sum += i->value * j->value;
      ++i;
      ++j;
    }
  }
  return sum;
}

double l2_norm(const SparseVector& a) {
  double sum = 0.0;
  for (const SparseEntry& entry : a) sum += entry.value * entry.value;
  return std::sqrt(sum);
}

double cosine(const SparseVector& a, const SparseVector& b) {
  const double norms = l2_norm(a) * l2_norm(b);
  if (norms == 0.0) return 0.0;
  return dot(a, b) / norms;
}

bool is_sorted_strictly(const SparseVector& a) {
  for (std::size_t k = 1; k < a.size(); ++k) {
    if (a[k - 1].index >= a[k].index) return false;
  }
  return true;
}

}  // namespace claimrag::tfidf
