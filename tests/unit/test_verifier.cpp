// The verifier's inputs: vocabulary, truncation, pair encoding, padded batches.

#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/verifier/pair_batch.hpp"
#include "claimrag/verifier/vocabulary.hpp"

using namespace claimrag::verifier;

TEST(Vocabulary, KeepsTokensSeenMinCountTimesByDecreasingCount) {
  const std::vector<std::vector<std::string>> texts = {{"b", "a", "b"}, {"c", "a", "b"}, {"d"}};
  const Vocabulary vocabulary = Vocabulary::build(texts, {.min_count = 2});
  ASSERT_EQ(vocabulary.size(), 6u);  // 4 reserved + b (3) + a (2)
  EXPECT_EQ(vocabulary.id("b"), 4);
  EXPECT_EQ(vocabulary.id("a"), 5);
  EXPECT_EQ(vocabulary.id("c"), Vocabulary::unknown_id);
  EXPECT_EQ(vocabulary.id("never"), Vocabulary::unknown_id);
  EXPECT_EQ(vocabulary.token(5), "a");
  EXPECT_EQ(vocabulary.token(Vocabulary::pad_id), "[PAD]");
  EXPECT_EQ(vocabulary.token(Vocabulary::unknown_id), "[UNK]");
  EXPECT_EQ(vocabulary.token(Vocabulary::cls_id), "[CLS]");
  EXPECT_EQ(vocabulary.token(Vocabulary::sep_id), "[SEP]");
  EXPECT_EQ(vocabulary.encode({"a", "x", "b"}), (std::vector<std::int32_t>{5, 1, 4}));
}

TEST(Vocabulary, TiesBreakByByteOrderAndTextOrderDoesNotMatter) {
  const Vocabulary one = Vocabulary::build({{"zeta", "alpha", "mid"}}, {.min_count = 1});
  const Vocabulary two = Vocabulary::build({{"mid"}, {"alpha"}, {"zeta"}}, {.min_count = 1});
  for (const auto* vocabulary : {&one, &two}) {
    EXPECT_EQ(vocabulary->id("alpha"), 4);
    EXPECT_EQ(vocabulary->id("mid"), 5);
    EXPECT_EQ(vocabulary->id("zeta"), 6);
  }
}

TEST(Vocabulary, MaxWordsKeepsTheMostFrequent) {
  const Vocabulary vocabulary = Vocabulary::build({{"a", "b", "b", "c", "c", "c"}}, {.min_count = 1, .max_words = 2});
  EXPECT_EQ(vocabulary.size(), 6u);
  EXPECT_EQ(vocabulary.id("c"), 4);
  EXPECT_EQ(vocabulary.id("b"), 5);
  EXPECT_EQ(vocabulary.id("a"), Vocabulary::unknown_id);
}

TEST(Vocabulary, MarkerLookalikesInTextAreOrdinaryWords) {
  const Vocabulary vocabulary = Vocabulary::build({{"[CLS]", "[CLS]"}}, {});
  EXPECT_EQ(vocabulary.id("[CLS]"), 4);
}

TEST(Vocabulary, RejectsBadOptionsAndIds) {
  EXPECT_THROW(Vocabulary::build({{"a"}}, {.min_count = 0}), claimrag::UsageError);
  EXPECT_THROW(Vocabulary({"a", "a"}), claimrag::InternalError);
  EXPECT_THROW((void)Vocabulary().token(4), claimrag::InternalError);
}

TEST(Truncation, HandWorkedCases) {
  // max_length 13: a budget of 10 tokens, halves 5 (claim) and 5.
  EXPECT_EQ(truncate_pair(4, 6, 13).claim, 4u);
  EXPECT_EQ(truncate_pair(4, 6, 13).sentence, 6u);
  EXPECT_EQ(truncate_pair(3, 20, 13).claim, 3u);   // short claim kept whole
  EXPECT_EQ(truncate_pair(3, 20, 13).sentence, 7u);
  EXPECT_EQ(truncate_pair(20, 4, 13).claim, 6u);   // short sentence kept whole
  EXPECT_EQ(truncate_pair(20, 4, 13).sentence, 4u);
  EXPECT_EQ(truncate_pair(20, 20, 13).claim, 5u);
  EXPECT_EQ(truncate_pair(20, 20, 13).sentence, 5u);
  // max_length 14: budget 11, claim half 5, the sentence takes the odd token.
  EXPECT_EQ(truncate_pair(20, 20, 14).claim, 5u);
  EXPECT_EQ(truncate_pair(20, 20, 14).sentence, 6u);
  EXPECT_EQ(truncate_pair(0, 0, 3).claim, 0u);
  EXPECT_THROW(truncate_pair(1, 1, 2), claimrag::UsageError);
}

TEST(Truncation, EqualsCuttingTheLongerSideOneTokenAtATime) {
  for (std::size_t max_length = 3; max_length <= 20; ++max_length) {
    for (std::size_t claim = 0; claim <= 25; ++claim) {
      for (std::size_t sentence = 0; sentence <= 25; ++sentence) {
        std::size_t c = claim, s = sentence;
        while (c + s > max_length - 3) (c >= s ? c : s) -= 1;
        const KeptLengths kept = truncate_pair(claim, sentence, max_length);
        ASSERT_EQ(kept.claim, c) << claim << " " << sentence << " " << max_length;
        ASSERT_EQ(kept.sentence, s) << claim << " " << sentence << " " << max_length;
      }
    }
  }
}

TEST(PairEncoding, MarkersAndSegments) {
  const EncodedPair pair = encode_pair({10, 11}, {12}, 64);
  EXPECT_EQ(pair.ids, (std::vector<std::int32_t>{2, 10, 11, 3, 12, 3}));
  EXPECT_EQ(pair.segments, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1}));
}

TEST(PairEncoding, TruncatesFromTheEnds) {
  const EncodedPair pair = encode_pair({10, 11, 12, 13}, {20, 21, 22, 23, 24}, 8);  // budget 5: 2 + 3
  EXPECT_EQ(pair.ids, (std::vector<std::int32_t>{2, 10, 11, 3, 20, 21, 22, 3}));
  EXPECT_EQ(pair.segments, (std::vector<std::int32_t>{0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST(PairEncoding, FromTokensThroughTheVocabulary) {
  const Vocabulary vocabulary({"il", "6", "levels"});
  const EncodedPair pair = encode_pair(vocabulary, {"il", "6"}, {"levels", "rose"}, 64);
  EXPECT_EQ(pair.ids, (std::vector<std::int32_t>{2, 4, 5, 3, 6, 1, 3}));
}

TEST(Batching, PadsToTheLongestMember) {
  const std::vector<EncodedPair> pairs = {encode_pair({10}, {11, 12}, 64), encode_pair({}, {13}, 64),
                                          encode_pair({14}, {}, 64)};
  const TokenBatch batch = make_batch(pairs, {1, 0});
  EXPECT_EQ(batch.batch, 2);
  EXPECT_EQ(batch.seq_len, 6);
  EXPECT_EQ(batch.ids, (std::vector<std::int32_t>{2, 3, 13, 3, 0, 0, 2, 10, 3, 11, 12, 3}));
  EXPECT_EQ(batch.segments, (std::vector<std::int32_t>{0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(batch.positions, (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(batch.lengths, (std::vector<Eigen::Index>{4, 6}));
  EXPECT_THROW(make_batch(pairs, {}), claimrag::InternalError);
}
