#pragma once
// SciFact's four F1s (abstract Label-only / Label+Rationale, sentence Selection-only /
// Selection+Label) of verdicts against labelled inputs, through the official metrics
// (official_metrics.hpp): what cross-validation and the reproduction stage score with.

#include <map>
#include <string>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"
#include "claimrag/verification/official_metrics.hpp"
#include "claimrag/verification/scifact_inputs.hpp"

namespace claimrag::verification::detail {

struct F1Scores {
  double precision = 0, recall = 0, f1 = 0;
};

struct TaskScores {
  F1Scores label_only, label_rationale, selection, selection_label;
};

/// The official metrics' counts of one claim's verdict against its labelled input.
VerificationCounts verdict_counts(const ClaimVerdict& verdict, const LabelledInput& gold);

/// Scores verdicts[i] against gold[i].evidence (parallel vectors); NEI verdicts are ignored and
/// only the first 3 rationale sentences count for the abstract-level rationale.
TaskScores verdict_scores(const std::vector<ClaimVerdict>& verdicts, const std::vector<const LabelledInput*>& gold);

/// verdict_scores over the claims' own abstracts: every document whose id holds '#' (a passage
/// the free-text training data adds, scifact_inputs.hpp) left out of the verdicts and the gold,
/// so that a training mix with passages is scored on what a mix without them is.
TaskScores abstract_scores(const std::vector<ClaimVerdict>& verdicts, const std::vector<const LabelledInput*>& gold);

}  // namespace claimrag::verification::detail
