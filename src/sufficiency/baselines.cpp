#include "claimrag/sufficiency/baselines.hpp"

#include <algorithm>
#include <numeric>

#include "claimrag/sufficiency/benchmark.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::sufficiency {

linear::RowMatrixXd pooled_features(std::span<const ScoredExample> scored, Pooling pooling) {
  linear::RowMatrixXd X(static_cast<Eigen::Index>(scored.size()), 3);
  for (std::size_t i = 0; i < scored.size(); ++i) {
    const auto& pairs = scored[i].pairs;
    const auto row = static_cast<Eigen::Index>(i);
    if (pairs.empty()) {
      X.row(row) << 0.0, 0.0, 1.0;
      continue;
    }
    double s = 0, r = 0, n = 0;
    if (pooling == Pooling::max) {
      n = 1;
      for (const auto& p : pairs) s = std::max(s, p.support), r = std::max(r, p.refute), n = std::min(n, p.neutral);
    } else {
      std::vector<std::size_t> order(pairs.size());
      std::iota(order.begin(), order.end(), 0);
      // Least neutral first; ties keep passage order.
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pairs[a].neutral < pairs[b].neutral; });
      const std::size_t k = pooling == Pooling::mean ? pairs.size() : std::min<std::size_t>(2, pairs.size());
      for (std::size_t j = 0; j < k; ++j) {
        s += pairs[order[j]].support / static_cast<double>(k);
        r += pairs[order[j]].refute / static_cast<double>(k);
        n += pairs[order[j]].neutral / static_cast<double>(k);
      }
    }
    X.row(row) << s, r, n;
  }
  return X;
}

linear::RowMatrixXd length_features(std::span<const Example> examples) {
  linear::RowMatrixXd X(static_cast<Eigen::Index>(examples.size()), 5);
  for (std::size_t i = 0; i < examples.size(); ++i) {
    double total = 0, longest = 0, shortest = examples[i].evidence.empty() ? 0 : 1e300;
    for (const auto& passage : examples[i].evidence) {
      const auto tokens = static_cast<double>(text::count_tokens(passage));
      total += tokens, longest = std::max(longest, tokens), shortest = std::min(shortest, tokens);
    }
    const auto m = static_cast<double>(examples[i].evidence.size());
    X.row(static_cast<Eigen::Index>(i)) << m, total, m > 0 ? total / m : 0.0, longest, shortest;
  }
  return X;
}

linear::RowMatrixXd overlap_features(std::span<const Example> examples, std::span<const ScoredExample> scored) {
  linear::RowMatrixXd X(static_cast<Eigen::Index>(examples.size()), 4);
  for (std::size_t i = 0; i < examples.size(); ++i) {
    double top = 0, sum = 0, least = scored[i].pairs.empty() ? 0 : 1;
    for (const auto& p : scored[i].pairs) top = std::max(top, p.overlap), sum += p.overlap, least = std::min(least, p.overlap);
    const auto m = static_cast<double>(scored[i].pairs.size());
    std::string joined;
    for (const auto& passage : examples[i].evidence) joined += passage + " ";
    X.row(static_cast<Eigen::Index>(i)) << top, m > 0 ? sum / m : 0.0, least, claim_overlap(examples[i].claim, joined);
  }
  return X;
}

linear::RowMatrixXd tfidf_rows(const tfidf::TfidfVectorizer& vectorizer, std::span<const std::string> texts) {
  linear::RowMatrixXd X = linear::RowMatrixXd::Zero(static_cast<Eigen::Index>(texts.size()), static_cast<Eigen::Index>(vectorizer.size()));
  for (std::size_t i = 0; i < texts.size(); ++i) {
    for (const auto& entry : vectorizer.transform(texts[i])) X(static_cast<Eigen::Index>(i), entry.index) = entry.value;
  }
  return X;
}

std::vector<std::string> claim_texts(std::span<const Example> examples) {
  std::vector<std::string> out;
  for (const auto& example : examples) out.push_back(example.claim);
  return out;
}

std::vector<std::string> evidence_texts(std::span<const Example> examples) {
  std::vector<std::string> out;
  for (const auto& example : examples) {
    std::string joined;
    for (const auto& passage : example.evidence) joined += (joined.empty() ? "" : " ") + passage;
    out.push_back(std::move(joined));
  }
  return out;
}

}  // namespace claimrag::sufficiency
