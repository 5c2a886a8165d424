// Searcher::search_pruned: MaxScore dynamic pruning, document at a time (see search.hpp for the contract).

#include <algorithm>
#include <limits>
#include <numeric>

#include "claimrag/bm25/search.hpp"
#include "top_hits.hpp"

namespace claimrag::bm25 {
namespace {

/// Bounds are inflated by this relative margin: a document's score summed in query order and its
/// bound summed in another order may round differently, by far less than this.
constexpr double kBoundMargin = 1e-9;

/// One distinct query term: where its postings are read, and the most it can add to a score
/// (its largest impact times how often the query holds it).
struct Cursor {
  std::uint32_t term = 0;
  PostingList list;
  std::uint64_t position = 0;  ///< into list
  std::uint64_t end = 0;
  double idf = 0.0;
  double bound = 0.0;
  double occurrences = 0;  ///< how often the query holds the term
  [[nodiscard]] bool at(std::uint32_t document) const { return position < end && list.documents[position] == document; }
};

/// Moves `position` to the first posting of [position, end) whose document is >= target, by
/// galloping: candidates rise slowly through long lists, so the jump is usually short.
std::uint64_t seek(const std::uint32_t* documents, std::uint64_t position, std::uint64_t end, std::uint32_t target) {
  if (position >= end || documents[position] >= target) return position;
  std::uint64_t step = 1;
  std::uint64_t low = position;  // documents[low] < target
  while (low + step < end && documents[low + step] < target) {
    low += step;
    step *= 2;
  }
  const std::uint64_t high = std::min(low + step, end);
  return static_cast<std::uint64_t>(std::lower_bound(documents + low + 1, documents + high, target) - documents);
}

}  // namespace

std::vector<Hit> Searcher::search_pruned_terms(const std::vector<std::uint32_t>& occurrences, std::size_t k) const {
  if (k == 0 || occurrences.empty()) return {};
  std::vector<Cursor> cursors;
  std::vector<std::size_t> cursor_of(occurrences.size());
  for (std::size_t o = 0; o < occurrences.size(); ++o) {
    const std::uint32_t term = occurrences[o];
    auto found = std::find_if(cursors.begin(), cursors.end(), [&](const Cursor& c) { return c.term == term; });
    if (found == cursors.end()) {
      const PostingList list = index_.postings(term);
      cursors.push_back({term, list, 0, list.size(), idf(term), 0.0, 0.0});
      found = cursors.end() - 1;
    }
    found->bound += max_impact(term);
    found->occurrences += 1.0;
    cursor_of[o] = static_cast<std::size_t>(found - cursors.begin());
  }
  // Order by bound, weakest first: a prefix of weak terms becomes non-essential as the k-th score rises.
  std::vector<std::size_t> order(cursors.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cursors[a].bound != cursors[b].bound ? cursors[a].bound < cursors[b].bound : cursors[a].term < cursors[b].term;
  });
  std::vector<Cursor> sorted(cursors.size());
  std::vector<std::size_t> rank(cursors.size());
  for (std::size_t r = 0; r < order.size(); ++r) {
    sorted[r] = cursors[order[r]];
    rank[order[r]] = r;
  }
  for (auto& c : cursor_of) c = rank[c];
  cursors = std::move(sorted);
  std::vector<double> prefix_bound(cursors.size());  // bound of cursors [0, i], with the margin
  double running = 0.0;
  for (std::size_t i = 0; i < cursors.size(); ++i) {
    running += cursors[i].bound;
    prefix_bound[i] = running * (1.0 + kBoundMargin);
  }

  const auto contribution_of = [&](const Cursor& c, std::uint32_t document) {
    return c.at(document) ? impact(c.idf, c.list.frequencies[c.position], document_norm_[document]) : 0.0;
  };
  // Documents come in increasing order, as in the exhaustive scorer, into the same holder.
  detail::TopHits top(k);
  double threshold = -std::numeric_limits<double>::infinity();
  std::size_t essential = 0;  // cursors [essential, n) drive the candidates
  const std::size_t n = cursors.size();
  std::vector<double> contribution(n, 0.0);  // per cursor, for the current candidate
  for (;;) {
    std::uint32_t candidate = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t i = essential; i < n; ++i) {
      if (cursors[i].position < cursors[i].end) candidate = std::min(candidate, cursors[i].list.documents[cursors[i].position]);
    }
    if (candidate == std::numeric_limits<std::uint32_t>::max()) break;
    // Contributions of the essential terms, then of the others strongest first while the
    // document can still beat the k-th score; the exact score is summed in query order after.
    double partial = 0.0;
    for (std::size_t i = essential; i < n; ++i) {
      contribution[i] = contribution_of(cursors[i], candidate);
      partial += cursors[i].occurrences * contribution[i];
    }
    bool skip = false;
    for (std::size_t i = essential; i-- > 0;) {
      if (partial * (1.0 + kBoundMargin) + prefix_bound[i] <= threshold) {
        skip = true;
        break;
      }
      Cursor& c = cursors[i];
      c.position = seek(c.list.documents.data(), c.position, c.end, candidate);
      contribution[i] = contribution_of(c, candidate);
      partial += c.occurrences * contribution[i];
    }
    if (!skip && top.full() && partial * (1.0 + kBoundMargin) <= threshold) skip = true;
    if (!skip) {
      double score = 0.0;
      for (std::size_t o = 0; o < occurrences.size(); ++o) score += contribution[cursor_of[o]];
      top.offer(candidate, score);
      if (top.full()) {
        threshold = top.worst_score();
        while (essential < n && prefix_bound[essential] <= threshold) ++essential;
      }
    }
    for (std::size_t i = essential; i < n; ++i) {
      Cursor& c = cursors[i];
      if (c.at(candidate)) ++c.position;
    }
  }
  return top.take_sorted();
}

}  // namespace claimrag::bm25
