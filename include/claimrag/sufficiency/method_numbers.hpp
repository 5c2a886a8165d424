#pragma once
// A sufficiency system's numbers from its decisions on labelled examples, by the names the
// reproduction's tables and results use; shared by the evaluation (evaluation.hpp) and by
// `sufficiency --evaluation` (command.hpp), so that a judge's row and SURE's are computed alike.

#include <map>
#include <string>
#include <vector>

#include "claimrag/sufficiency/evaluation.hpp"

namespace claimrag::sufficiency {

/// A system's result: `predicted` labels, `answered` 1/0, `confidence` the ranking score of the
/// risk-coverage curve, `p_supported` for the ECE, against `gold`.
MethodResult score_method(const std::string& name, const std::string& kind, const std::vector<int>& gold,
                          const std::vector<int>& predicted, const std::vector<int>& answered,
                          const std::vector<double>& confidence, const std::vector<double>& p_supported);

/// macro_f1, f1_supported, f1_refuted, f1_insufficient, accuracy, safe_f1, unsafe_f1,
/// risk_at_30/50/70, aurc, coverage_at_risk_10/5, ece.
std::map<std::string, double> method_numbers(const MethodResult& method);

}  // namespace claimrag::sufficiency
