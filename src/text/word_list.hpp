#pragma once
// Internal to the text module: a closed list of words for membership tests.

#include <iterator>
#include <string_view>
#include <unordered_set>

namespace claimrag::text::detail {

/// A hashed copy of a word list made once: the source lists stay readable in any order, and a
/// membership test costs one hash and about one comparison. (The verifier's relation features
/// test every word of every claim and sentence against several lists; a binary search's eight or
/// so comparisons per list were a quarter of claim verification's time.)
class WordList {
 public:
  template <std::size_t N>
  explicit WordList(const std::string_view (&words)[N]) : words_(std::begin(words), std::end(words)) {}
  /// True when `word` is in the list.
  bool contains(std::string_view word) const { return words_.contains(word); }

 private:
  std::unordered_set<std::string_view> words_;
};

}  // namespace claimrag::text::detail
