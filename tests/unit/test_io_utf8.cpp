// Command-line text is checked for UTF-8 before it reaches a JSON writer: the offset of the first
// ill-formed byte, by the Unicode standard's table of well-formed byte sequences.

#include <gtest/gtest.h>

#include <string>

#include "claimrag/io/utf8.hpp"

using claimrag::io::invalid_utf8_offset;

TEST(Utf8Check, WellFormedTextHasNoOffset) {
  EXPECT_EQ(invalid_utf8_offset(""), std::nullopt);
  EXPECT_EQ(invalid_utf8_offset("plain ASCII"), std::nullopt);
  EXPECT_EQ(invalid_utf8_offset("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), std::nullopt);  // é € 😀
  EXPECT_EQ(invalid_utf8_offset("\xF4\x8F\xBF\xBF"), std::nullopt);                        // U+10FFFF, the last
}

TEST(Utf8Check, TheFirstIllFormedByteIsNamed) {
  EXPECT_EQ(invalid_utf8_offset("ab\xFF"), 2u);               // never in UTF-8
  EXPECT_EQ(invalid_utf8_offset("x\xC0\xAF"), 1u);            // overlong '/'
  EXPECT_EQ(invalid_utf8_offset("\xED\xA0\x80"), 0u);         // a surrogate
  EXPECT_EQ(invalid_utf8_offset("\xF4\x90\x80\x80"), 0u);     // above U+10FFFF
  EXPECT_EQ(invalid_utf8_offset("ok \xE2\x82"), 3u);          // cut short at the end
  EXPECT_EQ(invalid_utf8_offset("\xC3\xA9\x80"), 2u);         // a lone continuation byte
  EXPECT_EQ(invalid_utf8_offset("\xE2(\xA1"), 0u);            // a continuation that is not one
}
