// How far a computed number may be from the expected one and still match:
// |got - want| <= atol, or <= rtol * |want|.
#pragma once

namespace judge {

struct Tolerance {
  double atol = 1e-9;
  double rtol = 1e-6;
  bool operator==(const Tolerance&) const = default;
};

}  // namespace judge
