#pragma once
// Scoring interrogation against gold Support / Refute / Neutral labels, in the shapes of the
// seed's Tables 3 and 4: which probes are fused (agree only, conflict only, all) and how (WP, WIG,
// WBU, the meta-verdict), against the single-question baseline (p_O's first answer, "RAG").
//
// The answers do not depend on α or on the probe subset, only their fusion does, so one
// interrogation is re-fused for every α and subset (refuse()).

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "claimrag/interrogation/interrogate.hpp"
#include "claimrag/metrics/classification.hpp"

namespace claimrag::interrogation {

/// Which probes' answers are fused.
enum class ProbeSubset : int { agree_only, conflict_only, all };

/// Which verdict is read: a fusion strategy, the meta-verdict over the three ("ALL" in the seed's
/// tables), or the single-question baseline.
enum class VerdictSource : int { baseline, wp, wig, wbu, meta };

/// "rag", "wp", "wig", "wbu", "all".
std::string_view verdict_source_name(VerdictSource source);

/// The fusion of one pair's answers restricted to `subset`, at `alpha`.
FusionResult refuse(const PairInterrogation& result, std::span<const Probe> probes, ProbeSubset subset, double alpha);

/// Each pair's verdict from `source` after re-fusing `subset` at `alpha` (the baseline ignores
/// both).
std::vector<Answer> verdicts(std::span<const PairInterrogation> results, std::span<const Probe> probes, ProbeSubset subset,
                             VerdictSource source, double alpha);

/// Accuracy, per-class F1 (indexed by Answer) and macro-F1 (metrics/classification.hpp).
using ClassificationScores = metrics::ClassificationScores<answer_count>;

/// metrics::classification_scores over the three answers; `items` as there.
ClassificationScores classification_scores(std::span<const Answer> gold, std::span<const Answer> predicted,
                                           std::span<const std::size_t> items = {});

}  // namespace claimrag::interrogation
