#include "claimrag/abstention/strategy_confidence.hpp"

#include "claimrag/error.hpp"

namespace claimrag::abstention {
namespace {

using verification::Label;

bool is_support(Label verdict) {
  if (verdict == Label::not_enough_info) throw InternalError("a strategy's confidence is defined for SUPPORT or CONTRADICT only");
  return verdict == Label::support;
}

double summed(const std::vector<interrogation::AbstractVerdict>& abstracts) {
  double sum = 0;
  for (const auto& abstract : abstracts) sum += abstract.confidence;
  return sum;
}

}  // namespace

double grounding_confidence(const grounding::ClaimJudgement& judgement, Label verdict) {
  return is_support(verdict) ? judgement.support : judgement.conflict;
}

double interrogation_confidence(const interrogation::ClaimLevelVerdict& verdict, Label answer) {
  const bool support = is_support(answer);
  const double supporting = summed(verdict.supporting);
  const double refuting = summed(verdict.refuting);
  if (supporting + refuting <= 0) return 0;
  return (support ? supporting : refuting) / (supporting + refuting);
}

double sufficiency_confidence(const sufficiency::SurePrediction& prediction, double beta, Label verdict) {
  const std::size_t label = is_support(verdict) ? 0 : 1;
  return prediction.probabilities[label] - beta * prediction.uncertainty;
}

}  // namespace claimrag::abstention
