#pragma once
// Term strings to dense ids, looked up by string_view without allocating: the hot path of index
// building and query parsing, where a node-based std::unordered_map<std::string, ...> was the
// bottleneck (an allocation-free open-addressing table is several times faster).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::text {

class TermDictionary {
 public:
  TermDictionary() { slots_.assign(1024, kEmpty); }

  /// The id of `term`, adding it with the next id (its insertion rank, from 0) if new.
  std::uint32_t intern(std::string_view term);
  /// The id of `term`, or -1 when absent.
  [[nodiscard]] std::int64_t find(std::string_view term) const;
  [[nodiscard]] const std::string& term(std::uint32_t id) const { return terms_[id]; }
  [[nodiscard]] std::size_t size() const { return terms_.size(); }
  /// Every term, indexed by id.
  [[nodiscard]] const std::vector<std::string>& terms() const { return terms_; }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  [[nodiscard]] std::size_t slot_of(std::string_view term, std::uint64_t hash) const;
  void grow();

  std::vector<std::string> terms_;
  std::vector<std::uint64_t> hashes_;  ///< per id, so growing needs no rehashing of strings
  std::vector<std::uint32_t> slots_;   ///< power-of-two table of ids, kEmpty when free
};

}  // namespace claimrag::text
