#include "claimrag/io/text_lines.hpp"

namespace claimrag::io {

void for_each_line(std::string_view contents, const std::function<void(const Line&)>& visit) {
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (contents.starts_with(kByteOrderMark)) contents.remove_prefix(kByteOrderMark.size());
  std::size_t number = 0;
  while (!contents.empty()) {
    const std::size_t end = contents.find('\n');
    std::string_view text = contents.substr(0, end);
    if (text.ends_with('\r')) text.remove_suffix(1);
    visit(Line{++number, text});
    if (end == std::string_view::npos) break;
    contents.remove_prefix(end + 1);
  }
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t tab = line.find('\t');
    fields.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

}  // namespace claimrag::io
