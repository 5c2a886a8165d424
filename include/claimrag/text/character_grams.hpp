#pragma once
// Character n-grams of a text's tokens, as a text of space-separated "words" that an index built
// with the paper's tokenizer takes as they are. Each token (text/tokenizer.hpp: a lower-cased run
// of a-z0-9) contributes its n-grams in order; a token of n characters or fewer contributes
// itself. With n = 3, "Anti-inflammatory" (two tokens) gives "ant nti inf nfl fla lam amm mma mat
// ato tor ory". Matching by grams lets a misspelt, hyphenated or differently written word
// ("antinflammatory", "anti-inflammatory") share most of its terms with the other form.
#include <cstddef>
#include <string>
#include <string_view>

namespace claimrag::text {

/// The n-grams of every token of `text`, separated by single spaces. UsageError when n is 0.
std::string character_grams(std::string_view text, std::size_t n);

}  // namespace claimrag::text
