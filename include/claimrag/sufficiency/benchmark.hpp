#pragma once
// The sufficiency benchmark built from SciFact (seeded, frozen by its seed), each example a
// (claim, evidence set) with a gold label, in groups of variants of one claim:
//   full              gold rationale sentences + distractors      -> Supported / Refuted (the set's label)
//   partial           a multi-sentence rationale with one sentence swapped for a non-rationale
//                     sentence of the same abstract               -> Insufficient
//   hard_insufficient non-rationale sentences of the same abstract -> Insufficient
//   irrelevant        sentences of other abstracts                -> Insufficient
//
// Matched by construction, so that length and overlap say nothing about the label:
//  - every variant of a group has the same number of passages (one sentence each) and shares the
//    same distractors; the variants differ only in the rationale's slots;
//  - each rationale sentence's slot is filled, in a degraded variant, by the unused candidate
//    closest to it in claim overlap (fraction of the claim's content words it holds) and length
//    (tokens): cost = |Δoverlap| + length_weight·|Δtokens| / max(tokens, 1);
//  - passages are shuffled within each example (seeded), so position says nothing either.
// Distractors and irrelevant sentences come from "foreign" abstracts: the claim's BM25 top
// abstracts that no train or dev claim cites or has evidence in, so no abstract family reaches
// from one split into another through them.
//
// Splits: test from SciFact's dev claims; train and dev from its train claims, one of
// `folds` family folds (verification/claim_folds.hpp) as dev. Every train claim whose family
// (claims joined by shared abstracts) touches an abstract a test example uses is dropped.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/sufficiency/example.hpp"

namespace claimrag::sufficiency {

struct BenchmarkOptions {
  std::uint64_t seed = 42;
  std::size_t distractors = 2;        ///< foreign sentences shared by every variant of a group
  std::size_t foreign_abstracts = 10; ///< BM25 top uncited abstracts per claim giving foreign sentences
  double length_weight = 0.5;         ///< weight of the relative length difference in the matching cost
  std::size_t folds = 5;              ///< family folds of the train claims; fold `dev_fold` is dev
  std::size_t dev_fold = 0;
  double bm25_k1 = 1.2, bm25_b = 0.75;
};

struct Benchmark {
  std::vector<Example> examples;          ///< train, then dev, then test; groups together
  std::size_t dropped_train_claims = 0;   ///< train claims whose family touched a test abstract
  std::size_t skipped_claims = 0;         ///< claims with evidence but too few foreign sentences
};

/// Builds the benchmark. Throws UsageError on bad options.
Benchmark build_benchmark(const std::vector<dataset::Abstract>& abstracts, const std::vector<dataset::Claim>& train_claims,
                          const std::vector<dataset::Claim>& dev_claims, const BenchmarkOptions& options);

/// Fraction of the claim's distinct non-stop-word tokens present in `text` (0 when it has none):
/// the overlap the construction matches and the overlap-only baseline reads.
double claim_overlap(std::string_view claim, std::string_view text);

}  // namespace claimrag::sufficiency
