#pragma once
// A grounding benchmark with gold claim labels, built from SciFact claims: each answer joins
// 2–4 claims (sentences) about the same abstract(s), and its context holds the claims' gold
// abstracts plus decoy abstracts retrieved by BM25 for the same claims (mixed-quality retrieval).
//
// Construction (deterministic for a seed):
//  1. Eligible claims: the claim's text, trimmed and ended with '.' when it has no terminator,
//     must stay one claim between two others: segment_claims("A. " + text + " B.") gives exactly
//     "A.", text, "B." (a claim starting with a lowercase letter or a digit, say, would merge with
//     the one before it and is skipped, counted in `skipped_claims`).
//  2. Families: claims sharing a cited or evidence abstract, transitively (union-find), in order
//     of their first claim. Within a family, claims are bucketed by gold label (SUPPORT,
//     CONTRADICT, NEI), each bucket shuffled, and the buckets interleaved round-robin, so that
//     answers mix labels; the sequence is cut into ceil(n / max_claims) answers of near-equal
//     size. A family with fewer than min_claims claims goes to a pool, which is shuffled and cut
//     the same way (answers about several abstracts). A piece shorter than min_claims (a pool of
//     one claim, or min_claims > max_claims / 2) is dropped and its claims counted.
//  3. This is repeated for `rounds` rounds with different draws (every claim appears once per
//     round, in other company); answer ids are "<prefix>-r<round>-<n>".
//  4. Context: every cited and evidence abstract of the answer's claims (in claim order, each
//     once), then for each claim its first `decoys_per_claim` BM25-ranked abstracts that are not
//     already in the context.
//  5. Gold label of a claim against the context: its SciFact evidence label (SUPPORT or
//     CONTRADICT; no SciFact claim mixes them), else NEI. Every evidence abstract is in the
//     context, so this is the claim's label against the context.
//  6. With unrelated_per_answer = u > 0: u eligible claims appended to each answer, drawn
//     uniformly (a second std::mt19937_64 seeded with seed + 1, so steps 1-5 draw the same) from
//     the claims whose cited and evidence abstracts are all outside the answer's context and that
//     are not already in it; gold NEI, flagged `unrelated`. The context is unchanged.
// Shuffles are Fisher–Yates over std::mt19937_64 draws taken modulo the range, which gives the
// same answers with every standard library.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "claimrag/dataset/scifact.hpp"
#include "claimrag/run/run.hpp"
#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::grounding {

struct BenchmarkClaim {
  std::string claim_id;  ///< SciFact's
  std::string text;      ///< as it appears in the answer
  verification::Label gold = verification::Label::not_enough_info;
  bool unrelated = false;  ///< added by BenchmarkOptions::unrelated_per_answer: about another topic, NEI
};

struct BenchmarkAnswer {
  std::string id;
  std::string answer;                        ///< the claims joined by one space
  std::vector<BenchmarkClaim> claims;        ///< in answer order
  std::vector<std::string> context_doc_ids;  ///< gold abstracts, then decoys
  std::size_t gold_documents = 0;            ///< the first this many of context_doc_ids
};

struct BenchmarkOptions {
  std::size_t min_claims = 2;
  std::size_t max_claims = 4;
  std::size_t decoys_per_claim = 2;
  std::size_t rounds = 1;
  std::uint64_t seed = 42;
  std::string id_prefix = "answer";
  /// Unrelated claims appended to each answer (step 6), gold NEI.
  std::size_t unrelated_per_answer = 0;
};

struct Benchmark {
  std::vector<BenchmarkAnswer> answers;
  std::size_t skipped_claims = 0;  ///< not eligible (step 1)
  std::size_t dropped_claims = 0;  ///< left over in a round (step 2), summed over rounds
};

/// The claim as it appears in an answer: trimmed, '.' appended when it ends without '.', '!' or '?'.
std::string answer_sentence(std::string_view claim_text);

/// Builds the benchmark of `claims`; `decoys` ranks abstracts for each claim (BM25), by claim id.
/// UsageError for min_claims < 1, max_claims < min_claims or rounds < 1.
Benchmark build_benchmark(const std::vector<dataset::Claim>& claims, const run::Run& decoys, const BenchmarkOptions& options);

/// `sample_size` answer indices (all when there are fewer), drawn without replacement with `seed`,
/// in increasing order.
std::vector<std::size_t> frozen_sample(std::size_t answers, std::size_t sample_size, std::uint64_t seed);

/// In-place Fisher–Yates shuffle with draws of `generator` modulo the range (see the file comment).
template <typename T, typename Generator>
void shuffle_portably(std::vector<T>& items, Generator& generator) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(generator() % i);
    std::swap(items[i - 1], items[j]);
  }
}

}  // namespace claimrag::grounding
