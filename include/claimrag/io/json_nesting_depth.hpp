#pragma once
// How deeply a JSON text nests, found by a scan of its bytes before any parser sees it. The JSON
// libraries claimrag uses recurse when they print, copy or free a document, so a document nested
// a hundred thousand levels deep (a few hundred kilobytes) would exhaust the stack: every reader
// of untrusted JSON refuses a text nested deeper than its limit first.

#include <cstddef>
#include <string_view>

namespace claimrag::io {

/// The deepest nesting of arrays and objects in `text` (0 for a scalar), counting '[' and '{'
/// outside strings (escapes respected). The text need not be valid JSON: the scan stops as soon
/// as the depth passes `stop_above`, and returns that depth.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_above);

}  // namespace claimrag::io
