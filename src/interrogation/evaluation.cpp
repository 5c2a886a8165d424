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
  return metrics::classification_scores<answer_count>(gold, predicted, items);
}

}  // namespace claimrag::interrogation
