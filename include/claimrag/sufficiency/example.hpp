#pragma once
// A sufficiency example: one claim and a set of evidence passages, with (for a benchmark) the
// gold answer-level label, the variant it was built as and the group of variants it belongs to.
//
// JSON Lines, one example a line:
//   {"id", "claim", "evidence": ["passage", ...]}                       (what `sufficiency` reads)
//   + "group", "split", "variant", "label", "claim_id", "sources": [{"doc_id", "sentence"}]
//                                                                      (what the benchmark adds)
// Other fields are ignored by the reader.

#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace claimrag::sufficiency {

/// The answer-level labels, in the order of every probability vector.
enum class SufficiencyLabel : int { supported = 0, refuted = 1, insufficient = 2 };
inline constexpr std::size_t kSufficiencyLabels = 3;
std::string_view label_name(SufficiencyLabel label);  ///< "Supported", "Refuted", "Insufficient"
SufficiencyLabel parse_sufficiency_label(std::string_view name);  ///< UsageError for anything else

/// How a benchmark example's evidence was built.
enum class Variant : int { full = 0, partial = 1, hard_insufficient = 2, irrelevant = 3, given = 4 };
std::string_view variant_name(Variant variant);  ///< "full", "partial", "hard_insufficient", "irrelevant", "given"
Variant parse_variant(std::string_view name);

/// Where a benchmark passage came from.
struct PassageSource {
  std::string doc_id;
  std::size_t sentence = 0;
};

struct Example {
  std::string id;
  std::string claim;
  std::vector<std::string> evidence;  ///< the passages, in order (may be empty)
  // Benchmark fields (defaults for user input).
  std::string group;                  ///< variants of one claim share it
  std::string split;                  ///< "train", "dev" or "test"
  Variant variant = Variant::given;
  SufficiencyLabel label = SufficiencyLabel::insufficient;
  bool labelled = false;              ///< true when `label` is gold
  std::string claim_id;               ///< the source claim's id (what the cross-fitted verifier keys on)
  std::vector<PassageSource> sources; ///< parallel to evidence, for benchmark examples
};

/// Reads examples. `id` a non-empty string or integer, unique; `claim` a string (any content,
/// even only punctuation); `evidence` an array of strings (empty allowed: Insufficient); a
/// `label`, when present, must be a known label. DataError `file:line: reason` otherwise.
std::vector<Example> read_examples(const std::filesystem::path& path);

/// Writes examples with every benchmark field, atomically.
void write_examples(const std::filesystem::path& path, const std::vector<Example>& examples);

}  // namespace claimrag::sufficiency
