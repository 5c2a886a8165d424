#pragma once
// Internal to the text module: a closed list of words for membership tests.

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

namespace claimrag::text::detail {

/// A sorted copy of a word list made once, then binary search: the source lists stay
/// readable in any order.
class WordList {
 public:
  template <std::size_t N>
  explicit WordList(const std::string_view (&words)[N]) : sorted_(std::begin(words), std::end(words)) {
    std::sort(sorted_.begin(), sorted_.end());
  }
  /// True when `word` is in the list.
  bool contains(std::string_view word) const { return std::binary_search(sorted_.begin(), sorted_.end(), word); }

 private:
  std::vector<std::string_view> sorted_;
};

}  // namespace claimrag::text::detail
