#pragma once
// Checking text given on the command line before it reaches a JSON writer, which would refuse it
// only at the end, as an internal error.

#include <cstddef>
#include <optional>
#include <string_view>

namespace claimrag::io {

/// The offset of the first byte of `text` that does not begin a well-formed UTF-8 character
/// (overlong forms, surrogates and code points above U+10FFFF are ill-formed), or nullopt.
std::optional<std::size_t> invalid_utf8_offset(std::string_view text);

/// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a UTF-8
/// character: what every excerpt of outside text is cut to, so that a cut Chinese answer is still
/// valid UTF-8 and the JSON writer never refuses it.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace claimrag::io
