#pragma once
// The nesting depth of a JSON text, measured before it is parsed.
//
// nlohmann's parser and the code walking a parsed document recurse once per nested array or
// object, so a text of a few hundred kilobytes nested 100,000 levels deep ("[[[[…") overflows
// the stack. Every reader of JSON that claimrag did not write itself in this run (its own
// formats, checkpoint files, served replies) measures the depth first and refuses a text nested
// deeper than kMaxJsonDepth. The limit is serde_json's, with which the reference libraries
// (tokenizers, safetensors) read tokenizer.json and safetensors headers: no file they accept is
// refused here.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "claimrag/io/input_file.hpp"

namespace claimrag::io {

/// The deepest nesting of arrays and objects a JSON text may have.
inline constexpr std::size_t kMaxJsonDepth = 128;

/// The deepest nesting of arrays and objects in `text` (0 for a scalar), counted without parsing:
/// brackets inside strings do not count. Stops counting once past `limit` and returns limit + 1.
/// Linear in the text, no allocation; meaningful for any bytes, JSON or not.
std::size_t json_nesting_depth(std::string_view text, std::size_t limit = kMaxJsonDepth);

/// A number literal of a JSON text that no double holds (`1e400`), and the line it is on.
struct OverflowingNumber {
  std::size_t line = 0;
  std::string literal;
};

/// The first number of `text` (outside strings) too large for a double, if any. nlohmann's parser
/// throws an out_of_range naming no file for one; this finds it first. Linear in the text.
std::optional<OverflowingNumber> first_overflowing_number(std::string_view text);

/// The checks made on a JSON text before it is parsed. Throws DataError "<source>: JSON nested
/// deeper than 128 levels …" when `text` is nested deeper than kMaxJsonDepth, and
/// "<source>:<line>: the number 1e400 is out of range …" when it holds a number no double holds;
/// returns `text` otherwise, so that a parse reads `json::parse(io::depth_checked(text, file))`.
std::string_view depth_checked(std::string_view text, const std::string& source);

/// The whole file at `path` (io::read_file under `rule`), checked by depth_checked().
std::string read_json_text(const std::filesystem::path& path, const InputRule& rule = kSettingsInput);

}  // namespace claimrag::io
