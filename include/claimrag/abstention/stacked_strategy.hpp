#pragma once
// A strategy learned from the others: a logistic regression predicting that a claim's answer is
// safe from every strategy's confidence, fitted on the training claims' table only.
//
// Recipe: each confidence standardised with the training claims' mean and standard deviation (a
// constant column is centred only); L2-regularised logistic regression at C = 1 without class
// weights (rerank/logistic_regression.hpp, solved to its optimum); the confidence is the decision
// value wᵀx + b (monotone in the probability, which is all a ranking needs). Unanswered claims do
// not enter the fit (they are never answered). The test claims get the model fitted on every
// training claim; the training claims get out-of-fold values (`folds` folds of a seeded shuffle),
// so that an operating point chosen on them is chosen on values the model did not fit.

#include <cstdint>

#include "claimrag/abstention/claims_table.hpp"

namespace claimrag::abstention {

inline constexpr const char* kStackedStrategy = "stacked";

/// Appends the column "stacked" to both tables. UsageError when a table already has a column of
/// that name, when their strategy columns differ, when folds < 2, or when the training table's
/// answered claims are not both safe and unsafe (in every fold's training part too).
void add_stacked_strategy(ClaimsTable& train, ClaimsTable& test, std::uint64_t seed, std::size_t folds = 5);

}  // namespace claimrag::abstention
