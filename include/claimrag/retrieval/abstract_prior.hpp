#pragma once
// A prior over abstracts that does not look at the claim: how much an abstract resembles the
// abstracts that claims cite. A BEIR corpus holds the abstracts its claims were written against
// and many more that no claim cites (SciFact: 565 of 5,183 are cited by train claims); the cited ones
// differ in kind as well as in topic (they report a finding a claim can restate). The prior is
// the decision value of an L2 logistic regression (balanced class weights) that separates the
// abstracts cited by the training claims from all the others, over features of the abstract
// alone, kept few so that it learns the kind of an abstract rather than which abstract it is:
//   ln(1 + tf) of the `terms` terms of the stemmed whole-abstract view with the largest document
//   frequency (ties to the smaller term id), then ln(1 + the abstract's length in tokens).
// With few features and strong regularisation it cannot single out an abstract, so it carries
// over to abstracts no training claim cites; a family-grouped cross-validation measures that
// (docs/retrieval.md, "Lexical ranker").
#include <cstddef>
#include <vector>

#include "claimrag/rerank/logistic_regression.hpp"
#include "claimrag/retrieval/abstract_indexes.hpp"

namespace claimrag::retrieval {

struct AbstractPriorOptions {
  std::size_t terms = 100;  ///< most frequent terms used as features, >= 1
  double C = 0.003;         ///< the logistic regression's inverse regularisation strength, > 0
};

/// One row per abstract of `indexes`: the features above (terms + 1 columns; fewer terms when the
/// view has fewer).
rerank::RowMatrixXd abstract_prior_features(const AbstractIndexes& indexes, std::size_t terms);

/// The prior of every abstract (one per row of `features`), from a regression fitted on all rows
/// with label cited[d] (0 or 1). When every abstract is cited, or none, nothing separates them and
/// every prior is 0. UsageError on sizes that disagree or a label other than 0 or 1.
std::vector<double> fit_abstract_prior(const rerank::RowMatrixXd& features, const std::vector<int>& cited, double C);

}  // namespace claimrag::retrieval
