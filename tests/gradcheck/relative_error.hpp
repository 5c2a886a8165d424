#pragma once
// The relative error of an analytic gradient entry against its central difference.

#include <algorithm>
#include <cmath>

namespace claimrag::gradcheck {

/// |analytic − numeric| / max(|analytic| + |numeric|, floor): `floor` keeps the measure meaningful
/// for entries that are (or should be) near zero.
inline double relative_error(double analytic, double numeric, double floor) {
  const double scale = std::max(std::abs(analytic) + std::abs(numeric), floor);
  return std::abs(analytic - numeric) / scale;
}

}  // namespace claimrag::gradcheck
