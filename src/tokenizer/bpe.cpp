#include "claimrag/tokenizer/bpe.hpp"

#include <functional>
#include <queue>
#include <tuple>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

// A word's symbols as a doubly linked list over their first positions: a merge joins a symbol
// with its next one in place, and positions keep their left-to-right order.
struct Symbol {
  std::int32_t id;
  std::size_t previous;  // kNone at the word's start
  std::size_t next;      // kNone at its end
  bool merged_away;      // joined into the symbol before it
};

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// A pair waiting to be merged: ordered by rank, then position, so that the queue's top is the
// pair the rule chooses (the best rank, the leftmost of equals). It may have gone stale since.
struct Candidate {
  std::size_t rank;
  std::size_t at;  // the left symbol's position
  std::int32_t left_id;
  std::int32_t right_id;
  bool operator>(const Candidate& other) const { return std::tie(rank, at) > std::tie(other.rank, other.at); }
};

}  // namespace

Bpe::Bpe(Vocabulary vocabulary, const std::vector<std::pair<std::string, std::string>>& merges, BpeOptions options,
         const std::string& source)
    : SubwordModel(std::move(vocabulary)), options_(std::move(options)) {
  if (options_.unk_token) {
    unk_id_ = token_to_id(*options_.unk_token);
    if (!unk_id_) throw DataError(source, "the BPE vocabulary has no unknown token \"" + *options_.unk_token + "\"");
  }
  const std::size_t prefix = options_.continuing_subword_prefix.size();
  for (std::size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    const auto left_id = token_to_id(left);
    const auto right_id = token_to_id(right);
    // The merged token drops the right symbol's continuation prefix.
    const std::string tail = prefix > 0 && right.compare(0, prefix, options_.continuing_subword_prefix) == 0
                                 ? right.substr(prefix)
                                 : right;
    const auto merged_id = token_to_id(left + tail);
    if (!left_id || !right_id || !merged_id)
      throw DataError(source, "merge " + std::to_string(rank + 1) + " (\"" + left + " " + right +
                                  "\") uses a token the vocabulary lacks");
    // A pair listed twice keeps its last rank, as the reference's map does.
    merges_.insert_or_assign(std::make_pair(*left_id, *right_id), Merge{rank, *merged_id});
  }
}

void Bpe::tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const {
  if (word.empty()) return;
  if (options_.ignore_merges) {
    if (const auto whole = token_to_id(unicode::encode_utf8(word))) {
      ids.push_back(*whole);
      return;
    }
  }
  // The word's symbols: each character, with the prefix / suffix the vocabulary is written with.
  std::vector<std::int32_t> symbols;
  bool previous_unknown = false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    std::string text;
    if (i > 0) text += options_.continuing_subword_prefix;
    unicode::append_utf8(text, word[i]);
    if (i + 1 == word.size()) text += options_.end_of_word_suffix;
    if (const auto id = token_to_id(text)) {
      symbols.push_back(*id);
      previous_unknown = false;
    } else if (unk_id_) {
      if (!(options_.fuse_unk && previous_unknown)) symbols.push_back(*unk_id_);
      previous_unknown = true;
    }
  }
  merge_all(symbols);
  ids.insert(ids.end(), symbols.begin(), symbols.end());
}

// Merging the best pair until none is listed, in O(n log n) for a word of n symbols: every pair
// that comes to exist enters a priority queue once; a popped pair whose symbols have changed since
// is skipped. The pairs merged, and their order, are those of the rule in bpe.hpp.
void Bpe::merge_all(std::vector<std::int32_t>& ids) const {
  if (ids.size() < 2) return;
  std::vector<Symbol> symbols(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    symbols[i] = {ids[i], i == 0 ? kNone : i - 1, i + 1 == ids.size() ? kNone : i + 1, false};
  }
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  const auto offer = [&](std::size_t at) {
    if (at == kNone || symbols[at].next == kNone) return;
    const std::int32_t left = symbols[at].id;
    const std::int32_t right = symbols[symbols[at].next].id;
    const auto found = merges_.find({left, right});
    if (found != merges_.end()) queue.push({found->second.rank, at, left, right});
  };
  for (std::size_t i = 0; i + 1 < symbols.size(); ++i) offer(i);
  while (!queue.empty()) {
    const Candidate best = queue.top();
    queue.pop();
    Symbol& left = symbols[best.at];
    if (left.merged_away || left.id != best.left_id || left.next == kNone || symbols[left.next].id != best.right_id) continue;
    Symbol& right = symbols[left.next];
    left.id = merges_.at({best.left_id, best.right_id}).merged_id;
    right.merged_away = true;
    left.next = right.next;
    if (left.next != kNone) symbols[left.next].previous = best.at;
    offer(left.previous);
    offer(best.at);
  }
  ids.clear();
  for (std::size_t at = 0; at != kNone; at = symbols[at].next) ids.push_back(symbols[at].id);
}

}  // namespace claimrag::tokenizer
