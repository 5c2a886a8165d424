#include <gtest/gtest.h>

#include "claimrag/error.hpp"
#include "claimrag/nn/embedding_bag.hpp"

using claimrag::nn::Matrix;
using claimrag::nn::TokenBags;

namespace {

Matrix<double> table_4x2() {
  Matrix<double> table(4, 2);
  table << 1, 2,   //
      3, 4,        //
      -2, 0,       //
      10, 6;
  return table;
}

TokenBags bags_of(std::initializer_list<std::vector<std::int32_t>> texts) {
  TokenBags bags;
  for (const auto& text : texts) bags.add(text);
  return bags;
}

}  // namespace

TEST(EmbeddingBag, BagsStoreTextsBackToBack) {
  const TokenBags bags = bags_of({{0, 1}, {}, {2, 2, 3}});
  EXPECT_EQ(bags.size(), 3u);
  EXPECT_EQ(bags.ids, (std::vector<std::int32_t>{0, 1, 2, 2, 3}));
  EXPECT_EQ(bags.offsets, (std::vector<std::size_t>{0, 2, 2, 5}));
  EXPECT_EQ(bags.bag(2).size(), 3u);
}

TEST(EmbeddingBag, ForwardIsTheMeanOfTheRowsAndZeroForAnEmptyBag) {
  Matrix<double> out;
  claimrag::nn::embedding_bag_mean_forward(table_4x2(), bags_of({{0, 1}, {}, {2, 2, 3}}), out);
  Matrix<double> expected(3, 2);
  expected << 2, 3,      // (1+3)/2, (2+4)/2
      0, 0,              // empty
      2, 2;              // (-2-2+10)/3, (0+0+6)/3
  EXPECT_EQ(out, expected);
}

TEST(EmbeddingBag, BackwardScattersAShareOfEachRowGradientAndAdds) {
  Matrix<double> dout(3, 2);
  dout << 2, 4,  //
      7, 7,      // the empty bag sends nothing
      3, -6;
  Matrix<double> dtable = Matrix<double>::Constant(4, 2, 1.0);  // backward adds
  claimrag::nn::embedding_bag_mean_backward(bags_of({{0, 1}, {}, {2, 2, 3}}), dout, dtable);
  Matrix<double> expected(4, 2);
  expected << 1 + 1, 1 + 2,  // row 0: dout0 / 2
      1 + 1, 1 + 2,          // row 1: dout0 / 2
      1 + 2, 1 - 4,          // row 2 twice: 2 · dout2 / 3
      1 + 1, 1 - 2;          // row 3: dout2 / 3
  EXPECT_EQ(dtable, expected);
}

TEST(EmbeddingBag, ForwardRefusesIdsOutsideTheTable) {
  Matrix<double> out;
  EXPECT_THROW(claimrag::nn::embedding_bag_mean_forward(table_4x2(), bags_of({{4}}), out), claimrag::InternalError);
  EXPECT_THROW(claimrag::nn::embedding_bag_mean_forward(table_4x2(), bags_of({{-1}}), out), claimrag::InternalError);
}
