#include <gtest/gtest.h>

#include "claimrag/text/tokenizer.hpp"

using claimrag::text::count_tokens;
using claimrag::text::tokenize;

TEST(Tokenizer, LowercasesAndKeepsAlphanumericRuns) {
  EXPECT_EQ(tokenize("IL-6 levels rose 2.5-fold (p<0.05)."),
            (std::vector<std::string>{"il", "6", "levels", "rose", "2", "5", "fold", "p", "0", "05"}));
}

TEST(Tokenizer, NonAsciiBytesSeparate) {
  // "α-synuclein" and "naïve": every byte of a multi-byte character separates.
  EXPECT_EQ(tokenize("\xCE\xB1-synuclein na\xC3\xAFve"),
            (std::vector<std::string>{"synuclein", "na", "ve"}));
}

TEST(Tokenizer, EmptyAndSeparatorOnlyTextHaveNoTokens) {
  EXPECT_TRUE(tokenize("").empty());
  EXPECT_TRUE(tokenize(" ,;- \t\n").empty());
  EXPECT_EQ(count_tokens(""), 0u);
}

TEST(Tokenizer, CountMatchesTokenize) {
  for (const char* text : {"a", "a b", " a  b ", "A1b2-C3", "x.y,z", "\xC3\xA9t\xC3\xA9"}) {
    EXPECT_EQ(count_tokens(text), tokenize(text).size()) << text;
  }
}
