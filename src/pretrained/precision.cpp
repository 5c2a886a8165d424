#include "claimrag/pretrained/precision.hpp"

#include <atomic>

#include "claimrag/error.hpp"

namespace claimrag::pretrained {
namespace {

// Set once by the command line before any model loads; atomic so a read from a worker thread is
// never a data race.
std::atomic<Precision> default_precision{Precision::f32};

}  // namespace

std::string precision_name(Precision precision) {
  switch (precision) {
    case Precision::f32: return "f32";
    case Precision::int8: return "int8";
  }
  return "unknown";
}

Precision parse_precision(std::string_view text) {
  if (text == "f32") return Precision::f32;
  if (text == "int8") return Precision::int8;
  throw UsageError("unknown precision '" + std::string(text) + "' (f32 or int8)");
}

Precision default_checkpoint_precision() { return default_precision.load(); }

void set_default_checkpoint_precision(Precision precision) { default_precision.store(precision); }

}  // namespace claimrag::pretrained
