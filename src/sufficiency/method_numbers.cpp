#include "claimrag/sufficiency/method_numbers.hpp"

namespace claimrag::sufficiency {

MethodResult score_method(const std::string& name, const std::string& kind, const std::vector<int>& gold,
                          const std::vector<int>& predicted, const std::vector<int>& answered,
                          const std::vector<double>& confidence, const std::vector<double>& p_supported) {
  return {name, kind, classification_scores(gold, predicted), selective_scores(gold, answered, confidence, p_supported)};
}

std::map<std::string, double> method_numbers(const MethodResult& method) {
  const auto& c = method.classification;
  const auto& s = method.selective;
  return {{"macro_f1", c.macro_f1},          {"f1_supported", c.f1[0]},     {"f1_refuted", c.f1[1]},
          {"f1_insufficient", c.f1[2]},      {"accuracy", c.accuracy},      {"safe_f1", s.safe_f1},
          {"unsafe_f1", s.unsafe_f1},        {"risk_at_30", s.curve.risk_at_30}, {"risk_at_50", s.curve.risk_at_50},
          {"risk_at_70", s.curve.risk_at_70}, {"aurc", s.curve.aurc},        {"coverage_at_risk_10", s.curve.coverage_at_risk_10},
          {"coverage_at_risk_5", s.curve.coverage_at_risk_5}, {"ece", s.ece}};
}

}  // namespace claimrag::sufficiency
