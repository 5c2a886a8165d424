#pragma once
// How the verifier's passage-level verdicts on one claim combine into the claim's label.
//
// The verifier judges the claim against every context passage (a document of sentences) and gives
// per passage P(SUPPORT), P(CONTRADICT), P(NOT_ENOUGH_INFO) and its rationale sentences. With
//   s = max over passages of P(SUPPORT),  c = max over passages of P(CONTRADICT)
// (both 0 without passages), the claim is
//   conflicting  when c ≥ τ_c and c ≥ γ·s   (some passage refutes it and none supports it by more than 1/γ times),
//   supported    when s ≥ τ_s and c < γ·s   (some passage supports it by more than 1/γ times what any refutes it),
//   irrelevant   otherwise                  (the context does not settle it).
// γ (the contradict ratio) is 1 in the seed system's rule: the stronger of s and c decides. Below 1
// it asks support to outweigh contradiction by a margin, which a verifier that tells SUPPORT from
// CONTRADICT only weakly needs before a kept claim can be trusted.
// Its confidence is s, c, or 1 − max(s, c) respectively. In the seed system's rule (the
// reproduction's tables) the passage-level labels are not used: only the probabilities, so that
// τ_s and τ_c alone trade precision for recall. With `verdict_gates_support` (what `ground` does on
// users' text) a passage the verifier itself labels NOT_ENOUGH_INFO supports nothing: s is then
// the maximum over the other passages only, so that a passage on another subject, however many
// words it shares with the claim, cannot keep it. c is never gated: dropping a claim is the safe
// side. The seed tables choose their τ's on train (experiment/systems/grounding_stage.hpp);
// `ground` reads τ_s, τ_c, γ and the gate from the configuration's "grounding" section, chosen
// for the built-in verifier by scripts/research/ground_defaults.py.
//
// Citations: for a supported claim every passage with P(SUPPORT) ≥ τ_s, for a conflicting one
// every passage with P(CONTRADICT) ≥ τ_c, most probable first (ties: context order), each with
// its rationale sentences (best first); a supporting passage whose verdict selected none shows
// the sentence the verifier scored highest. An irrelevant claim cites nothing.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claimrag/verification/claim_verifier.hpp"

namespace claimrag::grounding {

enum class ClaimLabel : int { supported = 0, conflicting = 1, irrelevant = 2 };

/// "supported", "conflicting", "irrelevant".
std::string_view claim_label_name(ClaimLabel label);

/// τ_s and τ_c of the rule above, each in [0, 1], whether the verifier's NOT_ENOUGH_INFO verdict
/// on a passage keeps that passage out of s, and γ, in (0, 10].
struct GroundingThresholds {
  double support = 0.5;
  double conflict = 0.5;
  bool verdict_gates_support = false;
  double contradict_ratio = 1.0;
};

/// One cited sentence of a context passage.
struct CitedSentence {
  std::size_t index = 0;  ///< into the passage's sentences
  std::string text;
  double score = 0.0;  ///< the verifier's rationale score
};

/// A passage cited for a claim's label.
struct Citation {
  std::string doc_id;
  double probability = 0.0;  ///< P(SUPPORT) or P(CONTRADICT), the label's
  std::vector<CitedSentence> sentences;
};

struct ClaimJudgement {
  ClaimLabel label = ClaimLabel::irrelevant;
  double confidence = 0.0;
  double support = 0.0;   ///< s, read as the thresholds say (one of the two below)
  double conflict = 0.0;  ///< c
  /// s over the passages whose verdict is not NOT_ENOUGH_INFO, and over every passage: both
  /// readings, whichever the thresholds use, so that one judgement serves a choice between them.
  double gated_support = 0.0;
  double ungated_support = 0.0;
  std::vector<Citation> citations;
  std::size_t judged_passages = 0;  ///< passages the verifier was asked about
  /// (doc_id, why) of the passages the verifier could not judge (DocumentVerdict::failure): they
  /// count as NOT_ENOUGH_INFO with P(NOT_ENOUGH_INFO) 1, supporting and contradicting nothing.
  std::vector<std::pair<std::string, std::string>> failed_passages;
};

/// The label of `s` and `c` by the rule above.
ClaimLabel label_of(double support, double conflict, const GroundingThresholds& thresholds);

/// The judgement of one claim: `input` holds the passages the verifier judged, `verdict` its
/// verdicts on them (verification::verify_claims' output, one per passage, in order).
ClaimJudgement judge_claim(const verification::VerificationInput& input, const verification::ClaimVerdict& verdict,
                           const GroundingThresholds& thresholds);

}  // namespace claimrag::grounding
