#include "claimrag/interrogation/evaluation.hpp"

#include "claimrag/error.hpp"

namespace claimrag::interrogation {

std::string_view verdict_source_name(VerdictSource source) {
  switch (source) {
    case VerdictSource::baseline: return "rag";
    case VerdictSource::wp: return "wp";
    case VerdictSource::wig: return "wig";
    case VerdictSource::wbu: return "wbu";
    case VerdictSource::meta: return "all";
  }
  throw InternalError("unknown verdict source");
}

FusionResult refuse(const PairInterrogation& result, std::span<const Probe> probes, ProbeSubset subset, double alpha) {
  std::vector<ProbeAnswer> answers;
  answers.reserve(result.responses.size());
  for (const ResolvedResponse& response : result.responses) {
    const ProbeSet set = probes[response.probe].set();
    if (subset == ProbeSubset::agree_only && set != ProbeSet::agree) continue;
    if (subset == ProbeSubset::conflict_only && set != ProbeSet::conflict) continue;
    answers.push_back({set, response.resolution.answer});
  }
  return fuse(answers, alpha);
}

std::vector<Answer> verdicts(std::span<const PairInterrogation> results, std::span<const Probe> probes, ProbeSubset subset,
                             VerdictSource source, double alpha) {
  std::vector<Answer> out;
  out.reserve(results.size());
  for (const PairInterrogation& result : results) {
    if (source == VerdictSource::baseline) {
      out.push_back(result.baseline);
      continue;
    }
    const FusionResult fused = refuse(result, probes, subset, alpha);
    switch (source) {
      case VerdictSource::wp: out.push_back(fused.wp.verdict); break;
      case VerdictSource::wig: out.push_back(fused.wig.fused.verdict); break;
      case VerdictSource::wbu: out.push_back(fused.wbu.fused.verdict); break;
      default: out.push_back(fused.meta.verdict); break;
    }
  }
  return out;
}

ClassificationScores classification_scores(std::span<const Answer> gold, std::span<const Answer> predicted,
                                           std::span<const std::size_t> items) {
  if (gold.size() != predicted.size()) {
    throw InternalError("classification_scores: " + std::to_string(gold.size()) + " gold labels for " +
                        std::to_string(predicted.size()) + " predictions");
  }
  // confusion[g][p]: items of gold class g predicted as p.
  std::array<std::array<std::size_t, answer_count>, answer_count> confusion{};
  const auto count = [&](std::size_t i) {
    if (i >= gold.size()) throw InternalError("classification_scores: item index out of range");
    ++confusion[static_cast<std::size_t>(gold[i])][static_cast<std::size_t>(predicted[i])];
  };
  if (items.empty()) {
    for (std::size_t i = 0; i < gold.size(); ++i) count(i);
  } else {
    for (const std::size_t i : items) count(i);
  }
  ClassificationScores scores;
  std::size_t correct = 0;
  for (std::size_t c = 0; c < answer_count; ++c) {
    std::size_t gold_c = 0, predicted_c = 0;
    for (std::size_t o = 0; o < answer_count; ++o) {
      gold_c += confusion[c][o];
      predicted_c += confusion[o][c];
      scores.items += confusion[c][o];
    }
    correct += confusion[c][c];
    // F1 = 2·TP / (gold + predicted): equal to 2PR/(P+R), and 0 when the class never occurs.
    scores.f1[c] = gold_c + predicted_c == 0 ? 0.0
                                             : 2.0 * static_cast<double>(confusion[c][c]) / static_cast<double>(gold_c + predicted_c);
    scores.macro_f1 += scores.f1[c] / static_cast<double>(answer_count);
  }
  scores.accuracy = scores.items == 0 ? 0.0 : static_cast<double>(correct) / static_cast<double>(scores.items);
  return scores;
}

}  // namespace claimrag::interrogation
