#include "claimrag/text/term_dictionary.hpp"

#include <xxhash.h>

namespace claimrag::text {
namespace {
std::uint64_t hash_of(std::string_view term) { return XXH3_64bits(term.data(), term.size()); }
}  // namespace

std::size_t TermDictionary::slot_of(std::string_view term, std::uint64_t hash) const {
  // Linear probing; the table is at most half full, so probes stay short.
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = static_cast<std::size_t>(hash) & mask;
  while (slots_[slot] != kEmpty) {
    const std::uint32_t id = slots_[slot];
    if (hashes_[id] == hash && terms_[id] == term) return slot;
    slot = (slot + 1) & mask;
  }
  return slot;
}

std::int64_t TermDictionary::find(std::string_view term) const {
  const std::size_t slot = slot_of(term, hash_of(term));
  return slots_[slot] == kEmpty ? -1 : static_cast<std::int64_t>(slots_[slot]);
}

std::uint32_t TermDictionary::intern(std::string_view term) {
  const std::uint64_t hash = hash_of(term);
  std::size_t slot = slot_of(term, hash);
  if (slots_[slot] != kEmpty) return slots_[slot];
  const auto id = static_cast<std::uint32_t>(terms_.size());
  terms_.emplace_back(term);
  hashes_.push_back(hash);
  slots_[slot] = id;
  if (2 * terms_.size() > slots_.size()) grow();
  return id;
}

void TermDictionary::grow() {
  slots_.assign(slots_.size() * 2, kEmpty);
  const std::size_t mask = slots_.size() - 1;
  for (std::uint32_t id = 0; id < terms_.size(); ++id) {
    std::size_t slot = static_cast<std::size_t>(hashes_[id]) & mask;
    while (slots_[slot] != kEmpty) slot = (slot + 1) & mask;
    slots_[slot] = id;
  }
}

}  // namespace claimrag::text
