#include "claimrag/verification/verdict_failures.hpp"

#include <spdlog/spdlog.h>

#include "claimrag/error.hpp"

namespace claimrag::verification {

DocumentVerdict failed_verdict(const EvidenceDocument& document, std::string reason) {
  DocumentVerdict verdict;
  verdict.doc_id = document.doc_id;
  verdict.label = Label::not_enough_info;
  verdict.probabilities = {0.0, 0.0, 1.0};
  for (std::size_t s = 0; s < document.sentences.size(); ++s) verdict.sentence_scores.push_back({s, 0.0});
  verdict.failure = std::move(reason);
  return verdict;
}

VerdictFailures count_failures(std::span<const ClaimVerdict> verdicts) {
  VerdictFailures failures;
  for (const auto& verdict : verdicts) {
    for (const auto& document : verdict.documents) {
      ++failures.judged;
      if (document.failure.empty()) continue;
      ++failures.failed;
      if (failures.first_reason.empty()) failures.first_reason = document.failure;
    }
  }
  return failures;
}

void enforce_max_failures(const VerdictFailures& failures, double max_failures, std::string_view verifier_spec) {
  if (failures.failed == 0) return;
  if (static_cast<double>(failures.failed) > max_failures * static_cast<double>(failures.judged)) {
    throw DataError("--verifier " + std::string(verifier_spec.empty() ? "builtin" : verifier_spec),
                    std::to_string(failures.failed) + " of " + std::to_string(failures.judged) +
                        " pairs could not be judged, more than --max-failures " + std::to_string(max_failures) +
                        " allows (first reason: " + failures.first_reason + "); nothing written");
  }
  spdlog::warn("{} of {} pairs could not be judged: NOT_ENOUGH_INFO with probabilities (0, 0, 1), written as failed "
               "(first reason: {})",
               failures.failed, failures.judged, failures.first_reason);
}

}  // namespace claimrag::verification
