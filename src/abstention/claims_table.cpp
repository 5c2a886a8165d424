#include "claimrag/abstention/claims_table.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"
#include "claimrag/io/input_file.hpp"
#include "claimrag/io/finite_values.hpp"
#include "claimrag/io/table.hpp"
#include "claimrag/io/text_lines.hpp"

namespace claimrag::abstention {
namespace {

const std::vector<std::string> kFixedColumns{"claim_id", "answered", "unsafe"};

std::string shortest(double value) {
  if (!std::isfinite(value)) throw InternalError("claims table: a non-finite confidence");
  char text[64];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

bool read_flag(std::string_view field, const std::string& path, std::size_t line, const char* column) {
  if (field == "0") return false;
  if (field == "1") return true;
  throw DataError(path, line, std::string(column) + " must be 0 or 1, not \"" + std::string(field) + "\"");
}

}  // namespace

void write_claims_table(const ClaimsTable& table, const std::filesystem::path& path) {
  io::Table tsv{kFixedColumns, {}};
  tsv.columns.insert(tsv.columns.end(), table.strategies.begin(), table.strategies.end());
  for (std::size_t c = 0; c < table.claim_ids.size(); ++c) {
    std::vector<std::string> row{table.claim_ids[c], table.answered[c] ? "1" : "0", table.unsafe[c] ? "1" : "0"};
    for (const auto& column : table.confidence) row.push_back(shortest(column[c]));
    tsv.rows.push_back(std::move(row));
  }
  io::write_tsv(tsv, path);  // refuses a tab or newline in a name or id
}

ClaimsTable read_claims_table(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string contents = io::read_file(path, io::kDataInput);
  ClaimsTable table;
  bool header = false;
  std::set<std::string> seen;
  io::for_each_line(contents, [&](const io::Line& line) {
    if (io::is_blank(line.text)) return;
    const auto fields = io::split_tabs(line.text);
    if (!header) {
      if (fields.size() < kFixedColumns.size() + 1) {
        throw DataError(file, line.number, "the header must be claim_id, answered, unsafe and at least one strategy, tab-separated");
      }
      for (std::size_t f = 0; f < kFixedColumns.size(); ++f) {
        if (fields[f] != kFixedColumns[f]) {
          throw DataError(file, line.number, "header column " + std::to_string(f + 1) + " must be \"" + kFixedColumns[f] + "\"");
        }
      }
      std::set<std::string> names;
      for (std::size_t f = kFixedColumns.size(); f < fields.size(); ++f) {
        const std::string name(fields[f]);
        if (name.empty() || !names.insert(name).second) {
          throw DataError(file, line.number, "strategy column \"" + name + "\" is empty or repeated");
        }
        table.strategies.push_back(name);
      }
      table.confidence.resize(table.strategies.size());
      header = true;
      return;
    }
    const std::size_t expected = kFixedColumns.size() + table.strategies.size();
    if (fields.size() != expected) {
      throw DataError(file, line.number, "expected " + std::to_string(expected) + " tab-separated fields, found " + std::to_string(fields.size()));
    }
    const std::string id(fields[0]);
    if (id.empty()) throw DataError(file, line.number, "empty claim id");
    if (!seen.insert(id).second) throw DataError(file, line.number, "claim " + id + " appears twice");
    const bool answered = read_flag(fields[1], file, line.number, "answered");
    const bool unsafe = read_flag(fields[2], file, line.number, "unsafe");
    if (!answered && !unsafe) throw DataError(file, line.number, "an unanswered claim (answered 0) cannot be safe (unsafe 0)");
    for (std::size_t s = 0; s < table.strategies.size(); ++s) {
      const std::string_view text = fields[kFixedColumns.size() + s];
      double value = 0;
      if (const auto problem = io::number_problem(text, value); !problem.empty()) {
        throw DataError(file, line.number, table.strategies[s] + " \"" + std::string(text) + "\" " + problem);
      }
      table.confidence[s].push_back(value);
    }
    table.claim_ids.push_back(id);
    table.answered.push_back(answered);
    table.unsafe.push_back(unsafe);
  });
  if (!header) throw DataError(file, "empty: no header");
  if (table.claim_ids.empty()) throw DataError(file, "no claims after the header");
  return table;
}

}  // namespace claimrag::abstention
