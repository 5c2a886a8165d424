#pragma once
// The rule for document and query ids: one non-empty word. TREC run files separate their fields
// by whitespace and the TSV outputs by tabs, so an id holding whitespace cannot be written in a
// form that reads back as the same id; claimrag refuses such an id where it is loaded (corpus,
// queries, qrels), naming the file and line, rather than mapping it to something else.

#include <string>
#include <string_view>

namespace claimrag::dataset {

/// Why `id` is not a valid id ("is empty", "contains a space (byte 7)", ...), or "" when valid.
/// Whitespace is any of space, tab, newline, carriage return, vertical tab and form feed.
[[nodiscard]] std::string identifier_problem(std::string_view id);

}  // namespace claimrag::dataset
