#pragma once
// The paper's sentence splitter: a sentence ends at '.', '?' or '!' followed by whitespace; the
// punctuation stays with its sentence and the whitespace is dropped. Fragments shorter than a
// minimum length (20 characters by default, counted after trimming) are dropped.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text {

/// A sentence and where it lies in the text it came from: [begin, end) in bytes.
struct Sentence {
  std::string text;
  std::size_t begin = 0;
  std::size_t end = 0;
};

/// The sentences of `text` in order, each trimmed of surrounding whitespace.
std::vector<Sentence> split_sentences(std::string_view text, std::size_t minimum_characters = 20);

}  // namespace claimrag::text
