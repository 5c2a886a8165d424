#pragma once
// Table 1: dataset statistics written as TSV (the paper's rows) and JSON (full precision).

#include <filesystem>
#include <string>
#include <vector>

#include "claimrag/dataset/statistics.hpp"
#include "claimrag/io/table.hpp"

namespace claimrag::experiment {

/// Loads the BEIR folder with every split under qrels/ and computes its statistics. A split judging
/// documents the corpus lacks gets a warning with their count and the first five ids.
dataset::DatasetStatistics dataset_statistics(const std::filesystem::path& beir_folder);

/// Logs a warning naming `qrels_file`, the count of `missing` (judged documents absent from
/// `corpus_file`, dataset::judged_documents_missing) and the first five; nothing when none is.
void warn_missing_documents(const std::vector<std::string>& missing, const std::filesystem::path& qrels_file,
                            const std::filesystem::path& corpus_file);

/// Table 1 as the paper lays it out: one row per statistic, two decimals for means.
io::Table table1(const dataset::DatasetStatistics& statistics);

/// Writes `<out_folder>/token_lengths.tsv`: kind (document or the split name) and tokens, a row
/// per document and per judged claim (the data of Figure 2).
void write_token_lengths(const dataset::DatasetStatistics& statistics, const std::filesystem::path& out_folder);

/// Writes `<out_folder>/table1.tsv` and `<out_folder>/table1.json`.
void write_table1(const dataset::DatasetStatistics& statistics, const std::filesystem::path& out_folder);

}  // namespace claimrag::experiment
