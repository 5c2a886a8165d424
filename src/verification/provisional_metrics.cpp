#include "provisional_metrics.hpp"

#include <algorithm>
#include <set>

namespace claimrag::verification::detail {
namespace {

F1Scores f1(double correct, double predicted, double gold) {
  F1Scores s;
  s.precision = predicted > 0 ? correct / predicted : 0;
  s.recall = gold > 0 ? correct / gold : 0;
  s.f1 = s.precision + s.recall > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0;
  return s;
}

}  // namespace

TaskScores provisional_scores(const std::vector<ClaimVerdict>& verdicts, const std::vector<const LabelledInput*>& gold) {
  double abstracts_gold = 0, abstracts_predicted = 0, label_correct = 0, rationale_correct = 0;
  double sentences_gold = 0, sentences_predicted = 0, selection_correct = 0, selection_label_correct = 0;
  for (std::size_t c = 0; c < verdicts.size(); ++c) {
    const auto& evidence = gold[c]->evidence;
    abstracts_gold += static_cast<double>(evidence.size());
    for (const auto& [doc, g] : evidence) {
      for (const auto& set : g.rationale_sets) sentences_gold += static_cast<double>(set.size());
    }
    for (const auto& verdict : verdicts[c].documents) {
      if (verdict.label == Label::not_enough_info) continue;
      abstracts_predicted += 1;
      sentences_predicted += static_cast<double>(verdict.rationale.size());
      const auto found = evidence.find(verdict.doc_id);
      if (found == evidence.end()) continue;
      const bool label_ok = found->second.label == verdict.label;
      const std::set<std::size_t> first3(verdict.rationale.begin(),
                                         verdict.rationale.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, verdict.rationale.size())));
      const std::set<std::size_t> all(verdict.rationale.begin(), verdict.rationale.end());
      bool contained = false;
      for (const auto& set : found->second.rationale_sets) {
        contained |= std::all_of(set.begin(), set.end(), [&](std::size_t s) { return first3.count(s) > 0; });
      }
      label_correct += label_ok;
      rationale_correct += label_ok && contained;
      for (const std::size_t s : all) {
        bool hit = false;
        for (const auto& set : found->second.rationale_sets) {
          hit |= std::find(set.begin(), set.end(), s) != set.end() &&
                 std::all_of(set.begin(), set.end(), [&](std::size_t t) { return all.count(t) > 0; });
        }
        selection_correct += hit;
        selection_label_correct += hit && label_ok;
      }
    }
  }
  return {f1(label_correct, abstracts_predicted, abstracts_gold), f1(rationale_correct, abstracts_predicted, abstracts_gold),
          f1(selection_correct, sentences_predicted, sentences_gold),
          f1(selection_label_correct, sentences_predicted, sentences_gold)};
}

}  // namespace claimrag::verification::detail
