#include "claimrag/abstention/command.hpp"

#include <algorithm>

#include "claimrag/abstention/claims_table.hpp"
#include "claimrag/error.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::abstention {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

std::string choose_reference(const std::vector<std::string>& strategies, const std::string& requested, const std::string& configured,
                             const std::vector<std::string>& also_known, const std::filesystem::path& table) {
  if (strategies.empty()) throw UsageError(table.string() + ": no strategy column after claim_id, answered, unsafe");
  if (!requested.empty()) {
    if (contains(strategies, requested) || contains(also_known, requested)) return requested;
    throw UsageError("compare-abstention: the reference \"" + requested + "\" is not a strategy of " + table.string() +
                     " (its strategies: " + joined(strategies) + ")");
  }
  return contains(strategies, configured) ? configured : strategies.front();
}

CompareAbstentionOutcome compare_abstention_command(const CompareAbstentionRequest& request, ComparisonSettings settings) {
  refuse_foreign_comparison_folder(request.out);
  const ClaimsTable test = read_claims_table(request.test);
  std::optional<ClaimsTable> train;
  if (request.train) train = read_claims_table(*request.train);
  std::vector<std::string> also_known;
  if (train && settings.stacked) also_known.push_back("stacked");
  CompareAbstentionOutcome outcome;
  const std::string configured = settings.reference;
  settings.reference = choose_reference(test.strategies, request.reference, configured, also_known, request.test);
  outcome.reference_defaulted_to_first = request.reference.empty() && settings.reference != configured;
  if (request.resamples > 0) settings.resamples = request.resamples;
  outcome.comparison = compare_abstention(test, train, settings);
  write_abstention_comparison(outcome.comparison, settings, request.out);
  outcome.settings = settings;
  return outcome;
}

std::string p_value_text(double p_value) { return p_value < 0.001 ? "< 0.001" : io::fixed(p_value, 4); }

std::string comparison_summary(const CompareAbstentionOutcome& outcome) {
  const auto& settings = outcome.settings;
  io::Table summary{{"strategy", "aurc", "risk_at_30", "risk_at_30_lower_95", "risk_at_30_upper_95",
                     "risk_at_30_p_vs_" + settings.reference + " (" + std::to_string(settings.resamples) + " resamples)"},
                    {}};
  for (const auto& row : outcome.comparison.rows) {
    summary.rows.push_back({row.name, io::fixed(row.aurc.estimate, 4), io::fixed(row.risk_at_30.estimate, 4),
                            io::fixed(row.risk_at_30.lower, 4), io::fixed(row.risk_at_30.upper, 4),
                            row.name == settings.reference ? "-" : p_value_text(row.risk_at_30_p_value)});
  }
  return io::to_tsv(summary);
}

}  // namespace claimrag::abstention
