#include "claimrag/io/table.hpp"

#include <cstdio>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::io {
namespace {

void append_row(std::string& out, const std::vector<std::string>& fields, std::size_t width) {
  if (fields.size() != width) throw InternalError("table row has a different width than its header");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].find_first_of("\t\n\r") != std::string::npos) {
      throw InternalError("table field holds a tab or newline: " + fields[i]);
    }
    out += fields[i];
    out += i + 1 < fields.size() ? '\t' : '\n';
  }
}

}  // namespace

std::string to_tsv(const Table& table) {
  std::string out;
  append_row(out, table.columns, table.columns.size());
  for (const auto& row : table.rows) append_row(out, row, table.columns.size());
  return out;
}

void write_tsv(const Table& table, const std::filesystem::path& path) {
  write_file_atomically(path, to_tsv(table));
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace claimrag::io
