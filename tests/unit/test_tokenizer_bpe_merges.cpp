// The BPE merge loop against its naive oracle: the plain rule (scan every adjacent pair, merge the
// best-ranked leftmost one, repeat), quadratic in the word, kept here to check that the priority
// queue over linked symbols gives exactly the same ids on many random words and merge tables.

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "claimrag/tokenizer/bpe.hpp"
#include "claimrag/tokenizer/unicode.hpp"

using namespace claimrag::tokenizer;

namespace {

struct MergeTable {
  Vocabulary vocabulary;
  std::vector<std::pair<std::string, std::string>> merges;
  BpeOptions options;
};

// The rule as first written: what the fast loop must reproduce.
class NaiveBpe {
 public:
  explicit NaiveBpe(const MergeTable& table) : table_(table) {
    const std::size_t prefix = table.options.continuing_subword_prefix.size();
    for (std::size_t rank = 0; rank < table.merges.size(); ++rank) {
      const auto& [left, right] = table.merges[rank];
      const std::string tail = prefix > 0 && right.compare(0, prefix, table.options.continuing_subword_prefix) == 0
                                   ? right.substr(prefix)
                                   : right;
      merges_.insert_or_assign(std::make_pair(id(left), id(right)), std::make_pair(rank, id(left + tail)));
    }
  }

  std::vector<std::int32_t> tokenize(const std::u32string& word) const {
    std::vector<std::int32_t> symbols;
    bool previous_unknown = false;
    for (std::size_t i = 0; i < word.size(); ++i) {
      std::string text = i > 0 ? table_.options.continuing_subword_prefix : "";
      unicode::append_utf8(text, word[i]);
      if (i + 1 == word.size()) text += table_.options.end_of_word_suffix;
      const auto found = table_.vocabulary.find(text);
      if (found != table_.vocabulary.end()) {
        symbols.push_back(found->second);
        previous_unknown = false;
      } else if (table_.options.unk_token) {
        if (!(table_.options.fuse_unk && previous_unknown)) symbols.push_back(id(*table_.options.unk_token));
        previous_unknown = true;
      }
    }
    while (symbols.size() > 1) {
      std::size_t best_rank = std::numeric_limits<std::size_t>::max();
      std::size_t best_at = 0;
      std::int32_t best_id = 0;
      for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
        const auto found = merges_.find({symbols[i], symbols[i + 1]});
        if (found != merges_.end() && found->second.first < best_rank) {
          best_rank = found->second.first;
          best_at = i;
          best_id = found->second.second;
        }
      }
      if (best_rank == std::numeric_limits<std::size_t>::max()) break;
      symbols[best_at] = best_id;
      symbols.erase(symbols.begin() + static_cast<std::ptrdiff_t>(best_at) + 1);
    }
    return symbols;
  }

 private:
  std::int32_t id(const std::string& token) const { return table_.vocabulary.at(token); }
  const MergeTable& table_;
  std::map<std::pair<std::int32_t, std::int32_t>, std::pair<std::size_t, std::int32_t>> merges_;
};

// A random alphabet's symbols (with the options' prefix and suffix forms) and `count` random
// merges of tokens already made, a few of them listed twice.
MergeTable random_table(std::mt19937_64& rng, const std::u32string& alphabet, std::size_t count, BpeOptions options) {
  MergeTable table;
  table.options = options;
  std::vector<std::string> tokens;
  const auto add = [&](const std::string& token) {
    if (table.vocabulary.emplace(token, static_cast<std::int32_t>(table.vocabulary.size())).second) tokens.push_back(token);
  };
  if (options.unk_token) add(*options.unk_token);
  for (const char32_t c : alphabet) {
    std::string plain;
    unicode::append_utf8(plain, c);
    for (const std::string& form : {plain, options.continuing_subword_prefix + plain, plain + options.end_of_word_suffix,
                                    options.continuing_subword_prefix + plain + options.end_of_word_suffix}) {
      add(form);
    }
  }
  const std::size_t prefix = options.continuing_subword_prefix.size();
  for (std::size_t m = 0; m < count; ++m) {
    if (m > 4 && rng() % 10 == 0) {
      const auto again = table.merges[rng() % table.merges.size()];  // a pair listed again: its last rank counts
      table.merges.push_back(again);
      continue;
    }
    const std::string left = tokens[rng() % tokens.size()];
    const std::string right = tokens[rng() % tokens.size()];
    const std::string tail = prefix > 0 && right.compare(0, prefix, options.continuing_subword_prefix) == 0 ? right.substr(prefix) : right;
    add(left + tail);
    table.merges.emplace_back(left, right);
  }
  return table;
}

std::u32string random_word(std::mt19937_64& rng, const std::u32string& alphabet, std::size_t length) {
  std::u32string word;
  // Runs of one character make many equal-ranked overlapping pairs, where ties must go left.
  while (word.size() < length) word.append(1 + rng() % (rng() % 4 == 0 ? 9 : 2), alphabet[rng() % alphabet.size()]);
  word.resize(length);
  return word;
}

void expect_same_as_naive(const MergeTable& table, std::mt19937_64& rng, const std::u32string& alphabet, int words) {
  const Bpe bpe(table.vocabulary, table.merges, table.options, "random merges");
  const NaiveBpe naive(table);
  for (int w = 0; w < words; ++w) {
    const std::size_t length = w % 50 == 0 ? 300 + rng() % 700 : 1 + rng() % 40;
    const std::u32string word = random_word(rng, alphabet, length);
    std::vector<std::int32_t> ids;
    bpe.tokenize(word, ids);
    ASSERT_EQ(ids, naive.tokenize(word)) << "word " << unicode::encode_utf8(word);
  }
}

}  // namespace

TEST(TokenizerBpeMerges, EqualsTheNaiveRuleOnRandomWordsAndTables) {
  std::mt19937_64 rng(42);
  const std::u32string alphabet = U"abcdé";
  for (int round = 0; round < 40; ++round) {
    const MergeTable table = random_table(rng, alphabet, 5 + rng() % 120, BpeOptions{});
    expect_same_as_naive(table, rng, alphabet, 200);
  }
}

TEST(TokenizerBpeMerges, EqualsTheNaiveRuleWithPrefixSuffixAndUnknownCharacters) {
  std::mt19937_64 rng(7);
  const std::u32string known = U"xyz";
  for (int round = 0; round < 30; ++round) {
    BpeOptions options;
    options.continuing_subword_prefix = round % 2 == 0 ? "##" : "";
    options.end_of_word_suffix = round % 3 == 0 ? "</w>" : "";
    options.unk_token = "<unk>";
    options.fuse_unk = round % 2 == 1;
    const MergeTable table = random_table(rng, known, 5 + rng() % 60, options);
    expect_same_as_naive(table, rng, known + U"q", 200);  // q is outside the vocabulary
  }
}

TEST(TokenizerBpeMerges, OneLongWordTakesFarLessThanTheNaiveRule) {
  // 200,000 characters: the naive rule needs minutes, the queue well under a second (Release).
  std::mt19937_64 rng(3);
  const std::u32string alphabet = U"ab";
  const MergeTable table = random_table(rng, alphabet, 60, BpeOptions{});
  const Bpe bpe(table.vocabulary, table.merges, table.options, "random merges");
  const std::u32string word = random_word(rng, alphabet, 200000);
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::int32_t> ids;
  bpe.tokenize(word, ids);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(ids.empty());
  EXPECT_LT(seconds, 20.0);  // a bound sanitizer builds meet too; the quadratic loop took ~3 minutes
}
