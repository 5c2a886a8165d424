#include "claimrag/verifier/vocabulary.hpp"

#include <algorithm>

#include "claimrag/error.hpp"

namespace claimrag::verifier {

Vocabulary::Vocabulary(std::vector<std::string> words) {
  tokens_ = {"[PAD]", "[UNK]", "[CLS]", "[SEP]"};
  tokens_.reserve(tokens_.size() + words.size());
  for (auto& word : words) {
    const auto id = static_cast<std::int32_t>(tokens_.size());
    if (!ids_.emplace(word, id).second) throw InternalError("vocabulary word listed twice: " + word);
    tokens_.push_back(std::move(word));
  }
}

Vocabulary Vocabulary::build(const std::vector<std::vector<std::string>>& texts,
                             const VocabularyOptions& options) {
  if (options.min_count < 1) throw UsageError("vocabulary min_count must be at least 1");
  std::unordered_map<std::string, std::size_t> counts;
  for (const auto& text : texts) {
    for (const auto& token : text) ++counts[token];
  }
  std::vector<std::pair<std::string, std::size_t>> kept;
  for (auto& [token, count] : counts) {
    if (count >= options.min_count) kept.emplace_back(token, count);
  }
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (options.max_words > 0 && kept.size() > options.max_words) kept.resize(options.max_words);
  std::vector<std::string> words;
  words.reserve(kept.size());
  for (auto& entry : kept) words.push_back(std::move(entry.first));
  return Vocabulary(std::move(words));
}

std::int32_t Vocabulary::id(std::string_view token) const {
  const auto found = ids_.find(std::string(token));
  return found == ids_.end() ? unknown_id : found->second;
}

std::vector<std::int32_t> Vocabulary::encode(const std::vector<std::string>& tokens) const {
  std::vector<std::int32_t> ids;
  ids.reserve(tokens.size());
  for (const auto& token : tokens) ids.push_back(id(token));
  return ids;
}

const std::string& Vocabulary::token(std::int32_t id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size()) throw InternalError("vocabulary id out of range");
  return tokens_[static_cast<std::size_t>(id)];
}

}  // namespace claimrag::verifier
