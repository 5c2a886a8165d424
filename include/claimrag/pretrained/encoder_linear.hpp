#pragma once
// One linear layer of an encoder as it runs: packed float32 weights, or int8 ones.

#include "claimrag/pretrained/int8_linear.hpp"
#include "claimrag/pretrained/packed_linear.hpp"
#include "claimrag/pretrained/precision.hpp"

namespace claimrag::pretrained {

class EncoderLinear {
 public:
  EncoderLinear(const LinearWeights& layer, Precision precision)
      : quantized_(precision == Precision::int8),
        f32_(quantized_ ? PackedLinear() : PackedLinear(layer)),
        int8_(quantized_ ? Int8Linear(layer) : Int8Linear()) {}

  /// y = x Wᵀ + b (approximately, in int8) for x [n, in]; y resized to [n, out].
  void apply(const ConstRowBlock& x, nn::Matrix<float>& y) const {
    if (quantized_) {
      int8_.apply(x, y);
    } else {
      f32_.apply(x, y);
    }
  }

 private:
  bool quantized_;
  PackedLinear f32_;
  Int8Linear int8_;
};

}  // namespace claimrag::pretrained
