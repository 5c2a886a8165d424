#include <gtest/gtest.h>

#include "claimrag/dense/vocabulary.hpp"
#include "claimrag/error.hpp"

using claimrag::dense::Vocabulary;

TEST(DenseVocabulary, IdsFollowLexicographicOrderWhateverTheTextOrder) {
  const Vocabulary a = Vocabulary::build({"Beta alpha, beta!", "gamma 2"});
  const Vocabulary b = Vocabulary::build({"gamma 2", "beta ALPHA"});
  EXPECT_EQ(a.tokens(), (std::vector<std::string>{"2", "alpha", "beta", "gamma"}));
  EXPECT_EQ(a.tokens(), b.tokens());
  EXPECT_EQ(a.checksum(), b.checksum());
  EXPECT_EQ(a.id("alpha"), 1);
  EXPECT_EQ(a.id("gamma"), 3);
  EXPECT_EQ(a.id("delta"), -1);
}

TEST(DenseVocabulary, EncodeKeepsOrderAndRepeatsAndDropsUnknownTokens) {
  const Vocabulary vocabulary = Vocabulary::build({"il 6 raises crp"});
  // tokens: 6, crp, il, raises
  EXPECT_EQ(vocabulary.encode("IL-6 raises IL-6 and TNF"), (std::vector<std::int32_t>{2, 0, 3, 2, 0}));
  EXPECT_TRUE(vocabulary.encode("nothing known").empty());
  EXPECT_EQ(vocabulary.encode_all({"crp", "", "il"}), (std::vector<std::vector<std::int32_t>>{{1}, {}, {2}}));
}

TEST(DenseVocabulary, ChecksumChangesWithAnyToken) {
  EXPECT_NE(Vocabulary::from_tokens({"a", "b"}).checksum(), Vocabulary::from_tokens({"b", "a"}).checksum());
  EXPECT_NE(Vocabulary::from_tokens({"ab"}).checksum(), Vocabulary::from_tokens({"a", "b"}).checksum());
}

TEST(DenseVocabulary, FromTokensRefusesDuplicatesAndEmptyTokens) {
  EXPECT_THROW(Vocabulary::from_tokens({"a", "a"}), claimrag::InternalError);
  EXPECT_THROW(Vocabulary::from_tokens({""}), claimrag::InternalError);
  const Vocabulary saved = Vocabulary::from_tokens({"x", "a"});
  EXPECT_EQ(saved.id("x"), 0);  // a saved order is kept as it is
}
