// through_channel(value): `value` as the judge holds it after a runner sent
// it: written as the harness writes (typed arrays for lists of numbers),
// read back by the judge's reader (run/wire_format.hpp). Lists of doubles
// come back as typed arrays, lists of integers as JSON lists.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "run/wire_format.hpp"

namespace judge::testing {

inline nlohmann::json through_channel(const nlohmann::json& value) {
  std::vector<std::uint8_t> bytes = nlohmann::json::to_cbor(with_typed_arrays(value));
  nlohmann::json decoded;
  std::string problem;
  EXPECT_TRUE(
      decode_from_wire(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), &decoded, &problem))
      << problem;
  return decoded;
}

}  // namespace judge::testing
