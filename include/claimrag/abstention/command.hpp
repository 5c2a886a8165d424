#pragma once
// The library side of `claimrag compare-abstention`: the reference strategy chosen for the user's
// table, the comparison written to the output folder, and the summary the command prints.
//
// The configuration's reference (bm25_top1) fits the reproduction's tables; a user's own table
// usually has other columns. Without --reference the configuration's reference is used when the
// table has that column, else the table's first strategy column; a --reference the table lacks is
// a UsageError that lists the strategies it has.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claimrag/abstention/comparison.hpp"

namespace claimrag::abstention {

/// What the command line asks for.
struct CompareAbstentionRequest {
  std::filesystem::path test;                  ///< the claims table compared on
  std::optional<std::filesystem::path> train;  ///< the table operating points are chosen on
  std::filesystem::path out;                   ///< folder for abstention.tsv, ... (comparison.hpp)
  std::string reference;                       ///< --reference; empty: see the header comment
  std::size_t resamples = 0;                   ///< --resamples; 0: the settings'
};

/// The comparison and the settings it was made with (the reference chosen, the resamples).
struct CompareAbstentionOutcome {
  AbstentionComparison comparison;
  ComparisonSettings settings;
  bool reference_defaulted_to_first = false;  ///< the table lacked the configuration's reference
};

/// The reference for a table whose strategy columns are `strategies` (in order): `requested` when
/// not empty (UsageError naming `table` and listing `strategies` when it is none of them, unless
/// `also_known` holds it, e.g. "stacked"); else `configured` when the table has it; else the first
/// column. UsageError when the table has no strategy column at all.
std::string choose_reference(const std::vector<std::string>& strategies, const std::string& requested, const std::string& configured,
                             const std::vector<std::string>& also_known, const std::filesystem::path& table);

/// Reads the tables, chooses the reference, compares and writes, all or nothing (comparison.hpp).
/// `settings` are the configuration's; the request's non-empty fields override them.
CompareAbstentionOutcome compare_abstention_command(const CompareAbstentionRequest& request, ComparisonSettings settings);

/// A p-value as people read it: "< 0.001" below 0.001, otherwise four decimals ("0.0140").
/// Tables written to files keep the number itself; this is for what is printed.
std::string p_value_text(double p_value);

/// What the command prints on stdout: a tab-separated header, then per strategy and the oracle its
/// AURC, Risk@30 with its 95 % interval, and the Risk@30 p-value against the reference
/// (p_value_text), the header naming the reference and the resample count.
std::string comparison_summary(const CompareAbstentionOutcome& outcome);

}  // namespace claimrag::abstention
