#pragma once
// The rationale selection rule: the sentences whose selector probability is at least τ, best
// first (equal probabilities: the earlier sentence first), at most `max_sentences` of them.

#include <cstddef>
#include <vector>

namespace claimrag::verification {

/// Indices into `probabilities`, best first. Precondition: max_sentences ≥ 1.
std::vector<std::size_t> select_rationale(const std::vector<double>& probabilities, double tau, std::size_t max_sentences);

/// The `count` best indices by probability (same order and ties as above), whatever their value.
std::vector<std::size_t> best_sentences(const std::vector<double>& probabilities, std::size_t count);

}  // namespace claimrag::verification
