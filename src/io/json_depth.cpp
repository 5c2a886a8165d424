#include "claimrag/io/json_depth.hpp"

#include "claimrag/error.hpp"
#include "claimrag/io/atomic_file.hpp"

namespace claimrag::io {

std::size_t json_nesting_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::string_view depth_checked(std::string_view text, const std::string& source) {
  if (json_nesting_depth(text) > kMaxJsonDepth) {
    throw DataError(source, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                " levels of arrays and objects: refused before parsing");
  }
  return text;
}

std::string read_json_text(const std::filesystem::path& path) {
  std::string text = read_file(path);
  (void)depth_checked(text, path.string());
  return text;
}

}  // namespace claimrag::io
