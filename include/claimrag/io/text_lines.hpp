#pragma once
// Line-oriented reading shared by every text format claimrag loads (JSONL, TSV, TREC runs).

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace claimrag::io {

/// One line of a text file, without its line ending; `number` counts from 1.
struct Line {
  std::size_t number;
  std::string_view text;
};

/// Calls `visit` for every line of `contents`, in order. A leading UTF-8 byte-order mark is
/// skipped; lines may end in "\n" or "\r\n"; a final line without a newline still counts.
/// Blank lines are passed on too, so that callers decide (and line numbers stay true).
void for_each_line(std::string_view contents, const std::function<void(const Line&)>& visit);

/// True when the line holds nothing but spaces, tabs or a carriage return.
bool is_blank(std::string_view line);

/// The tab-separated fields of `line`, empty ones included ("a\t\tb" has three); views into it.
std::vector<std::string_view> split_tabs(std::string_view line);

}  // namespace claimrag::io
