#include "claimrag/verification/claim_folds.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "claimrag/error.hpp"

namespace claimrag::verification {
namespace {

std::size_t find_root(std::vector<std::size_t>& parent, std::size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<std::size_t> claim_families(const std::vector<std::vector<std::string>>& claim_documents) {
  const std::size_t n = claim_documents.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  std::map<std::string, std::size_t> first_claim_of;
  for (std::size_t c = 0; c < n; ++c) {
    for (const auto& doc : claim_documents[c]) {
      const auto [it, inserted] = first_claim_of.emplace(doc, c);
      if (!inserted) {
        const std::size_t a = find_root(parent, it->second), b = find_root(parent, c);
        parent[std::max(a, b)] = std::min(a, b);  // the root stays the family's earliest claim
      }
    }
  }
  std::vector<std::size_t> family(n);
  for (std::size_t c = 0; c < n; ++c) family[c] = find_root(parent, c);
  return family;
}

std::vector<std::size_t> family_folds(const std::vector<std::vector<std::string>>& claim_documents, std::size_t folds) {
  if (folds < 2) throw UsageError("cross-validation needs at least 2 folds");
  const std::size_t n = claim_documents.size();
  const auto family = claim_families(claim_documents);
  std::map<std::size_t, std::vector<std::size_t>> families;  // root (earliest claim) -> members
  for (std::size_t c = 0; c < n; ++c) families[family[c]].push_back(c);
  std::vector<const std::vector<std::size_t>*> order;
  for (const auto& [root, members] : families) order.push_back(&members);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->size() > b->size(); });
  std::vector<std::size_t> fold_of(n), sizes(folds, 0);
  for (const auto* members : order) {
    const std::size_t fold = static_cast<std::size_t>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
    for (const std::size_t c : *members) fold_of[c] = fold;
    sizes[fold] += members->size();
  }
  return fold_of;
}

}  // namespace claimrag::verification
