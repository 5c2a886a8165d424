#include "claimrag/tokenizer/unigram.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "claimrag/error.hpp"
#include "claimrag/tokenizer/unicode.hpp"

namespace claimrag::tokenizer {
namespace {

// The reference's penalty below the lowest piece score for an unknown character.
constexpr double kUnknownPenalty = 10.0;

std::size_t utf8_length(unsigned char lead) {
  if (lead < 0x80U) return 1;
  if (lead < 0xE0U) return 2;
  if (lead < 0xF0U) return 3;
  return 4;
}

Vocabulary vocabulary_of(const std::vector<std::pair<std::string, double>>& pieces) {
  Vocabulary vocabulary;
  for (std::size_t id = 0; id < pieces.size(); ++id) vocabulary[pieces[id].first] = static_cast<std::int32_t>(id);
  return vocabulary;
}

}  // namespace

Unigram::Unigram(std::vector<std::pair<std::string, double>> pieces, std::optional<std::int32_t> unk_id, bool byte_fallback,
                 const std::string& source)
    : SubwordModel(vocabulary_of(pieces)), unk_id_(unk_id), byte_fallback_(byte_fallback), source_(source) {
  if (pieces.empty()) throw DataError(source, "the Unigram vocabulary is empty");
  if (unk_id && (*unk_id < 0 || static_cast<std::size_t>(*unk_id) >= pieces.size()))
    throw DataError(source, "Unigram unk_id " + std::to_string(*unk_id) + " is outside the vocabulary of " +
                                std::to_string(pieces.size()) + " pieces");
  double lowest = std::numeric_limits<double>::infinity();
  scores_.reserve(pieces.size());
  std::vector<std::string_view> keys;
  std::vector<std::int32_t> ids;
  keys.reserve(pieces.size());
  ids.reserve(pieces.size());
  for (const auto& [piece, score] : pieces) {
    scores_.push_back(score);
    lowest = std::min(lowest, score);
    keys.emplace_back(piece);
    ids.push_back(*token_to_id(piece));
  }
  unk_score_ = lowest - kUnknownPenalty;
  pieces_ = PrefixTrie<char>(keys, ids);
}

std::vector<std::string> Unigram::segment(const std::string& text) const {
  // best[end]: the best path over text[0, end), by the piece ending there.
  struct Best {
    double score = 0.0;
    std::optional<std::size_t> start;
    std::int32_t id = 0;
  };
  std::vector<Best> best(text.size() + 1);
  const auto offer = [&](std::size_t start, std::size_t end, double score, std::int32_t id) {
    Best& target = best[end];
    // The first path found keeps a tie, as in the reference.
    if (!target.start || score > target.score) target = Best{score, start, id};
  };
  for (std::size_t start = 0; start < text.size();) {
    const double so_far = best[start].score;
    const std::size_t character = std::min(utf8_length(static_cast<unsigned char>(text[start])), text.size() - start);
    bool whole_character = false;
    // Every piece starting here, shortest first (the order the reference's trie gives), in one
    // walk of the trie that stops where no piece continues, and at kUnigramLongestPiece bytes.
    pieces_.walk(std::string_view(text).substr(start), kUnigramLongestPiece, [&](std::size_t length, std::int32_t id) {
      offer(start, start + length, so_far + scores_[static_cast<std::size_t>(id)], id);
      if (length == character) whole_character = true;
    });
    if (!whole_character) {
      if (!unk_id_)
        throw DataError(source_, "the text has a character the Unigram vocabulary lacks, and the model has no unk_id");
      offer(start, start + character, so_far + unk_score_, *unk_id_);
    }
    start += character;
  }
  // The path read backwards; a run of unknown characters is one piece, cut out once it is whole.
  std::vector<std::string> pieces;
  std::optional<std::size_t> unknown_end;  // where the unknown run being read backwards ends
  for (std::size_t end = text.size(); end > 0;) {
    const Best& node = best[end];
    const std::size_t start = *node.start;
    if (unk_id_ && node.id == *unk_id_) {
      if (!unknown_end) unknown_end = end;
    } else {
      if (unknown_end) pieces.push_back(text.substr(end, *unknown_end - end));
      unknown_end.reset();
      pieces.push_back(text.substr(start, end - start));
    }
    end = start;
  }
  if (unknown_end) pieces.push_back(text.substr(0, *unknown_end));
  std::reverse(pieces.begin(), pieces.end());
  return pieces;
}

void Unigram::tokenize(const std::u32string& word, std::vector<std::int32_t>& ids) const {
  for (const std::string& piece : segment(unicode::encode_utf8(word))) {
    if (const auto id = token_to_id(piece)) {
      ids.push_back(*id);
      continue;
    }
    if (byte_fallback_) {
      std::vector<std::int32_t> bytes;
      for (unsigned char byte : piece) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", byte);
        const auto id = token_to_id(name);
        if (!id) break;
        bytes.push_back(*id);
      }
      if (bytes.size() == piece.size()) {
        ids.insert(ids.end(), bytes.begin(), bytes.end());
        continue;
      }
    }
    if (!unk_id_) throw DataError(source_, "the text has a piece the Unigram vocabulary lacks, and the model has no unk_id");
    ids.push_back(*unk_id_);
  }
}

}  // namespace claimrag::tokenizer
