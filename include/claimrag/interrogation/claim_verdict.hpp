#pragma once
// A claim-level verdict across the abstracts interrogated for one claim (its top-k, say), and the
// most confident supporting and refuting abstracts, as the seed presents them to users.
//
// Rule: every abstract votes with its meta-verdict, weighted by its meta-confidence CS_M. With
// s = the sum of CS_M over abstracts judged SUPPORT and r the same for REFUTE:
// - s > r: SUPPORT, confidence s / (s + r); r > s: REFUTE, confidence r / (s + r);
// - s = r > 0 (a perfect standoff): NEUTRAL, confidence 0.5;
// - s = r = 0 (every abstract Neutral): NEUTRAL, confidence the mean CS_M of the abstracts.
// Neutral abstracts do not dilute a verdict: an abstract that does not address the claim is not
// evidence against it. Listed abstracts are ordered by CS_M, highest first, ties in input order.

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "claimrag/interrogation/interrogate.hpp"

namespace claimrag::interrogation {

struct AbstractVerdict {
  std::string pair_id;
  std::string doc_id;
  double confidence = 0.0;  ///< the pair's CS_M
};

struct ClaimLevelVerdict {
  std::string claim_id;
  std::string claim;
  Answer verdict = Answer::neutral;
  double confidence = 0.0;
  std::size_t abstracts = 0;
  std::vector<AbstractVerdict> supporting;  ///< the most confident, at most `listed`
  std::vector<AbstractVerdict> refuting;
};

/// One verdict per claim_id, in order of first appearance. `listed` bounds each list.
std::vector<ClaimLevelVerdict> claim_level_verdicts(std::span<const InterrogationPair> pairs,
                                                    std::span<const PairInterrogation> results,
                                                    std::size_t listed = 3);

/// JSON Lines {"claim_id", "claim", "verdict", "confidence", "abstracts", "supporting": [{"pair_id",
/// "doc_id", "confidence"}], "refuting": [...]}, written atomically.
void write_claim_verdicts(const std::filesystem::path& file, std::span<const ClaimLevelVerdict> verdicts);

}  // namespace claimrag::interrogation
