#include "claimrag/fusion/rrf.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <functional>
#include <unordered_set>
#include <vector>

#include "claimrag/error.hpp"

namespace claimrag::fusion {
namespace {

struct Candidate {
  std::string_view doc_id;
  double score = 0.0;
  std::size_t best_rank = 0;
};

void validate(std::span<const NamedRun> runs, const RrfOptions& options) {
  if (runs.size() < 2) {
    throw UsageError("reciprocal rank fusion needs at least two runs, got " + std::to_string(runs.size()));
  }
  if (!std::isfinite(options.k) || options.k < 0) throw UsageError("fusion: rrf k must be finite and >= 0");
  if (options.depth == 0) throw UsageError("fusion: depth must be >= 1");
  if (options.tag.empty() || options.tag.find_first_of(" \t\r\n") != std::string::npos) {
    throw UsageError("fusion: the tag must be one non-empty word, got \"" + options.tag + "\"");
  }
  for (const NamedRun& named : runs) {
    if (named.run == nullptr) throw InternalError("fusion: a null run was passed");
  }
}

// The queries of the first run in its order, then those only later runs rank, in their order.
std::vector<std::string> union_of_queries(std::span<const NamedRun> runs) {
  std::vector<std::string> queries;
  std::unordered_set<std::string> seen;
  for (const NamedRun& named : runs) {
    for (const auto& ranking : named.run->rankings) {
      if (seen.insert(ranking.query_id).second) queries.push_back(ranking.query_id);
    }
  }
  return queries;
}

// The candidates of one query, found by document id through an open-addressing table that is
// reused across queries: fusing allocates nothing per document, which a node-based map would.
class CandidateTable {
 public:
  void reset(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    slots_.assign(capacity, 0);
    candidates.clear();
  }
  /// The candidate of `doc_id`, created (with `rank` as its best rank) when new.
  std::size_t find_or_add(std::string_view doc_id, std::size_t rank) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = std::hash<std::string_view>{}(doc_id) & mask;; slot = (slot + 1) & mask) {
      if (slots_[slot] == 0) {
        candidates.push_back({doc_id, 0.0, rank});
        slots_[slot] = static_cast<std::uint32_t>(candidates.size());
        return candidates.size() - 1;
      }
      if (candidates[slots_[slot] - 1].doc_id == doc_id) return slots_[slot] - 1;
    }
  }
  std::vector<Candidate> candidates;

 private:
  std::vector<std::uint32_t> slots_;  // candidate index + 1; 0 is empty
};

// What the ranking sorts: 16 bytes instead of a whole candidate; ids are compared only on ties.
struct SortKey {
  double score;
  std::uint32_t best_rank;
  std::uint32_t candidate;
};

// Leaves the best `keep` candidates, best first, at the front of `keys` (the header's tie rule).
void order_best(std::vector<SortKey>& keys, std::size_t keep, const std::vector<Candidate>& candidates) {
  const auto better = [&](const SortKey& a, const SortKey& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.best_rank != b.best_rank) return a.best_rank < b.best_rank;
    return candidates[a.candidate].doc_id < candidates[b.candidate].doc_id;
  };
  const auto middle = keys.begin() + static_cast<long>(keep);
  if (keep < keys.size()) std::nth_element(keys.begin(), middle, keys.end(), better);
  std::sort(keys.begin(), middle, better);
}

}  // namespace

double rrf_term(double k, std::size_t rank) { return 1.0 / (k + static_cast<double>(rank)); }

run::Run reciprocal_rank_fusion(std::span<const NamedRun> runs, const RrfOptions& options) {
  validate(runs, options);
  static const run::Ranking empty;

  run::Run fused;
  fused.tag = options.tag;
  std::vector<const run::Ranking*> rankings(runs.size());
  CandidateTable table;
  auto& candidates = table.candidates;
  std::vector<char> seen;  // [candidate][run]: catches a run that ranks one document twice
  std::vector<SortKey> keys;
  for (const std::string& query_id : union_of_queries(runs)) {
    std::size_t longest = 0;
    std::size_t total = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const run::Ranking* found = runs[r].run->find(query_id);
      rankings[r] = found == nullptr ? &empty : found;
      const std::size_t used = std::min(options.depth, rankings[r]->documents.size());
      longest = std::max(longest, used);
      total += used;
    }
    table.reset(total);
    seen.clear();
    // Rank-major order adds every document's terms in increasing rank order (see the header).
    for (std::size_t position = 0; position < longest; ++position) {
      const double term = rrf_term(options.k, position + 1);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const auto& documents = rankings[r]->documents;
        if (position >= documents.size()) continue;
        const std::string_view doc_id = documents[position].doc_id;
        const std::size_t slot = table.find_or_add(doc_id, position + 1);
        if (seen.size() < candidates.size() * runs.size()) seen.resize(candidates.size() * runs.size(), 0);
        char& flag = seen[slot * runs.size() + r];
        if (flag) {
          throw InternalError("fusion: " + runs[r].source + " ranks document " + std::string(doc_id) +
                              " twice for query " + query_id);
        }
        flag = 1;
        candidates[slot].score += term;
      }
    }
    keys.clear();
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      keys.push_back({candidates[i].score, static_cast<std::uint32_t>(candidates[i].best_rank),
                      static_cast<std::uint32_t>(i)});
    }
    const std::size_t keep = std::min(options.depth, candidates.size());
    order_best(keys, keep, candidates);
    run::Ranking ranking{query_id, {}};
    ranking.documents.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i) {
      const Candidate& best = candidates[keys[i].candidate];
      ranking.documents.push_back({std::string(best.doc_id), best.score});
    }
    fused.add(std::move(ranking));
  }
  return fused;
}

}  // namespace claimrag::fusion
