#include "claimrag/text/sentence_splitter.hpp"

namespace claimrag::text {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_terminal(char c) { return c == '.' || c == '?' || c == '!'; }

}  // namespace

std::vector<Sentence> split_sentences(std::string_view text, std::size_t minimum_characters) {
  std::vector<Sentence> sentences;
  auto emit = [&](std::size_t begin, std::size_t end) {
    while (begin < end && is_space(text[begin])) ++begin;
    while (end > begin && is_space(text[end - 1])) --end;
    if (end - begin >= minimum_characters && end > begin) {
      sentences.push_back({std::string(text.substr(begin, end - begin)), begin, end});
    }
  };
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (is_terminal(text[i]) && is_space(text[i + 1])) {
      emit(start, i + 1);
      start = i + 1;
    }
  }
  emit(start, text.size());
  return sentences;
}

}  // namespace claimrag::text
