#pragma once
// Cross-validation folds grouped by cited abstract.
//
// SciFact's claims come in families written about one abstract, often a claim and its negation
// with opposite labels. A fold split that puts siblings on both sides lets a model score by
// remembering "this abstract means SUPPORT", which dev punishes (many dev evidence abstracts are
// cited by train claims with the opposite label). So claims connected through any shared cited
// or evidence document (the transitive closure, by union-find) always land in one fold.

#include <cstddef>
#include <string>
#include <vector>

namespace claimrag::verification {

/// The family of each claim: the index of the earliest claim connected to it through shared
/// documents (transitively), given each claim's documents.
std::vector<std::size_t> claim_families(const std::vector<std::vector<std::string>>& claim_documents);

/// Fold (0..folds−1) of each claim, given each claim's documents. Families are placed largest
/// first (ties: the family holding the earliest claim first) into the fold with the fewest claims
/// so far (ties: the lowest fold), which balances folds without any random draw.
/// Throws UsageError when folds < 2.
std::vector<std::size_t> family_folds(const std::vector<std::vector<std::string>>& claim_documents, std::size_t folds);

}  // namespace claimrag::verification
