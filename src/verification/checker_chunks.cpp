#include "claimrag/verification/checker_chunks.hpp"

#include "claimrag/error.hpp"
#include "claimrag/text/punkt_sentences.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::verification {
namespace {

namespace unicode = tokenizer::unicode;

// Python's str.strip(): Unicode whitespace off both ends.
std::string_view python_strip(std::string_view text) {
  const std::u32string points = unicode::decode_utf8(text, "a document chunk");
  const auto width = [](char32_t c) -> std::size_t { return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4; };
  std::size_t first = 0, last = points.size(), begin = 0, end = text.size();
  while (first < last && unicode::is_python_space(points[first])) begin += width(points[first++]);
  while (last > first && unicode::is_python_space(points[last - 1])) end -= width(points[--last]);
  return text.substr(begin, end - begin);
}

// Python's str.replace(" \n ", "\n"): left to right, matches not overlapping.
std::string collapse_breaks(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (true) {
    const std::size_t found = text.find(" \n ", at);
    if (found == std::string::npos) break;
    out.append(text, at, found - at);
    out += '\n';
    at = found + 3;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace

std::vector<ChunkItem> checker_items(std::string_view document) {
  std::vector<ChunkItem> items;
  std::size_t line_begin = 0;
  while (true) {
    const std::size_t line_end = std::min(document.find('\n', line_begin), document.size());
    for (auto& sentence : text::punkt_sentences(document.substr(line_begin, line_end - line_begin))) {
      items.push_back({std::move(sentence.text), line_begin + sentence.begin, line_begin + sentence.end});
    }
    if (line_end == document.size()) break;
    items.push_back({"\n", line_end, line_end + 1});
    line_begin = line_end + 1;
  }
  if (items.empty()) items.push_back({"", 0, 0});
  return items;
}

std::size_t word_count(std::string_view text) {
  std::size_t words = 0;
  bool in_word = false;
  for (const char32_t c : unicode::decode_utf8(text, "a document's sentence")) {
    const bool space = unicode::is_python_space(c);
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

std::vector<DocumentChunk> checker_chunks(const std::vector<ChunkItem>& items, const ItemCount& count,
                                          std::size_t chunk_size) {
  if (chunk_size == 0) throw InternalError("checker_chunks: a chunk size of 0");
  // Step 2: the runs of items, as [first, last) ranges; a run may be empty (an item too large
  // for any chunk closes the empty one before it, as the reference does).
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  std::size_t first = 0, counted = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::size_t own = count(items[i].text);
    if (counted + own > chunk_size) {
      runs.emplace_back(first, i);
      first = i;
      counted = own;
    } else {
      counted += own;
    }
  }
  if (first < items.size()) runs.emplace_back(first, items.size());
  // Step 3.
  std::vector<DocumentChunk> chunks;
  for (const auto& [begin, end] : runs) {
    std::string joined;
    for (std::size_t i = begin; i < end; ++i) joined += (i == begin ? "" : " ") + items[i].text;
    const std::string collapsed = collapse_breaks(joined);
    const std::string_view stripped = python_strip(collapsed);
    if (stripped.empty()) continue;
    chunks.push_back({std::string(stripped), items[begin].begin, items[end - 1].end});
  }
  return chunks;
}

}  // namespace claimrag::verification
