#include "claimrag/metrics/evidence.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "claimrag/error.hpp"
#include "claimrag/text/tokenizer.hpp"

namespace claimrag::metrics {
namespace {

PrecisionRecall from_counts(double correct_selected, double selected, double covered_gold, double gold) {
  PrecisionRecall scores;
  scores.precision = selected > 0 ? correct_selected / selected : 0.0;
  scores.recall = gold > 0 ? covered_gold / gold : 0.0;
  const double sum = scores.precision + scores.recall;
  scores.f1 = sum > 0 ? 2 * scores.precision * scores.recall / sum : 0.0;
  return scores;
}

std::map<std::string, int> token_counts(const std::vector<evidence::SentenceRef>& sentences) {
  std::map<std::string, int> counts;
  for (const auto& sentence : sentences) {
    for (const auto& token : text::tokenize(sentence.text)) ++counts[token];
  }
  return counts;
}

bool overlaps(std::size_t begin1, std::size_t end1, std::size_t begin2, std::size_t end2) {
  return begin1 < end2 && begin2 < end1;
}

}  // namespace

PrecisionRecall exact_match(const std::vector<evidence::SentenceRef>& selected,
                            const std::vector<evidence::SentenceRef>& gold) {
  std::set<std::pair<std::string, std::size_t>> gold_set, selected_set;
  for (const auto& sentence : gold) gold_set.emplace(sentence.doc_id, sentence.index);
  for (const auto& sentence : selected) selected_set.emplace(sentence.doc_id, sentence.index);
  double common = 0;
  for (const auto& key : selected_set) common += gold_set.contains(key) ? 1 : 0;
  return from_counts(common, static_cast<double>(selected_set.size()), common, static_cast<double>(gold_set.size()));
}

PrecisionRecall token_overlap(const std::vector<evidence::SentenceRef>& selected,
                              const std::vector<evidence::SentenceRef>& gold) {
  const auto predicted = token_counts(selected);
  const auto expected = token_counts(gold);
  double common = 0, predicted_total = 0, expected_total = 0;
  for (const auto& [token, count] : predicted) {
    predicted_total += count;
    const auto found = expected.find(token);
    if (found != expected.end()) common += std::min(count, found->second);
  }
  for (const auto& [token, count] : expected) expected_total += count;
  return from_counts(common, predicted_total, common, expected_total);
}

std::vector<RationaleSpan> rationale_spans(const dataset::Claim& claim, const std::vector<dataset::Abstract>& abstracts) {
  std::unordered_map<std::string, const dataset::Abstract*> by_id;
  for (const auto& abstract : abstracts) by_id.emplace(abstract.doc_id, &abstract);
  std::vector<RationaleSpan> spans;
  for (const auto& [doc_id, rationales] : claim.evidence) {
    const auto found = by_id.find(doc_id);
    if (found == by_id.end()) throw DataError("claim " + claim.id + ": evidence document " + doc_id + " is not in the corpus");
    const auto& sentences = found->second->sentences;
    std::vector<std::size_t> offsets(sentences.size());
    for (std::size_t i = 1; i < sentences.size(); ++i) offsets[i] = offsets[i - 1] + sentences[i - 1].size() + 1;
    std::set<int> indices;
    for (const auto& rationale : rationales) indices.insert(rationale.sentences.begin(), rationale.sentences.end());
    for (const int index : indices) {
      const auto i = static_cast<std::size_t>(index);
      if (i >= sentences.size()) throw DataError("claim " + claim.id + ": sentence " + std::to_string(index) + " of " + doc_id + " does not exist");
      spans.push_back({doc_id, offsets[i], offsets[i] + sentences[i].size()});
    }
  }
  return spans;
}

PrecisionRecall rationale_match(const std::vector<evidence::SentenceRef>& selected,
                                const std::vector<RationaleSpan>& gold) {
  double correct = 0;
  for (const auto& sentence : selected) {
    correct += std::any_of(gold.begin(), gold.end(), [&](const RationaleSpan& span) {
      return span.doc_id == sentence.doc_id && overlaps(span.begin, span.end, sentence.begin, sentence.end);
    }) ? 1 : 0;
  }
  double covered = 0;
  for (const auto& span : gold) {
    covered += std::any_of(selected.begin(), selected.end(), [&](const evidence::SentenceRef& sentence) {
      return span.doc_id == sentence.doc_id && overlaps(span.begin, span.end, sentence.begin, sentence.end);
    }) ? 1 : 0;
  }
  return from_counts(correct, static_cast<double>(selected.size()), covered, static_cast<double>(gold.size()));
}

}  // namespace claimrag::metrics
