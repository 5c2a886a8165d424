#pragma once
// Plain tables written as TSV: the format of every table claimrag produces.

#include <filesystem>
#include <string>
#include <vector>

namespace claimrag::io {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

/// Header line, then one line per row; fields must not hold tabs or newlines (InternalError).
std::string to_tsv(const Table& table);

/// Writes to_tsv(table) atomically.
void write_tsv(const Table& table, const std::filesystem::path& path);

/// `value` with exactly `decimals` digits after the point ("0.662213").
std::string fixed(double value, int decimals);

}  // namespace claimrag::io
