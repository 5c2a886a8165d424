#pragma once
// The precision a checkpoint's linear layers compute in: float32 (the default, and the parity
// reference) or int8 weights and activations (int8_linear.hpp), chosen with --precision.

#include <string>
#include <string_view>

namespace claimrag::pretrained {

enum class Precision {
  f32,   ///< float32 weights and products: the reference library's results to float rounding
  int8,  ///< int8 weights (a scale per output) and activations (a scale per row), exact integer sums
};

/// "f32" or "int8".
std::string precision_name(Precision precision);

/// Reads "f32" or "int8"; UsageError naming the accepted values otherwise.
Precision parse_precision(std::string_view text);

/// The precision checkpoints load at when the caller does not say: f32 unless --precision set
/// another for this process.
Precision default_checkpoint_precision();
void set_default_checkpoint_precision(Precision precision);

}  // namespace claimrag::pretrained
