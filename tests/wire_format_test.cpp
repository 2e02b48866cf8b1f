// Typed arrays on the runner channel: which lists become one, that they
// survive CBOR bit for bit, and that nothing else passes as one.
#include "run/wire_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <judge_harness/protocol.hpp>
#include <limits>

namespace judge {
namespace {
using nlohmann::json;

json through_cbor(const json& value) {
  json decoded = json::from_cbor(json::to_cbor(with_typed_arrays(value)), true, true, json::cbor_tag_handler_t::store);
  EXPECT_TRUE(expand_typed_arrays(&decoded));
  return decoded;
}

std::uint64_t bits(double number) {
  std::uint64_t out;
  std::memcpy(&out, &number, sizeof out);
  return out;
}

TEST(TypedArrays, OnlyNonEmptyListsOfFloatsOrOfInt64sBecomeOne) {
  json value = {{"logits", {1.5, -2.0, 0.25}},
                {"ids", {1, 2, 3}},
                {"mixed", {1, 2.5}},
                {"seeds", {1u, 18446744073709551615u}},
                {"empty", json::array()},
                {"nested", json::array({json::array({0.5, 1.5}), json::array({2, 3})})},
                {"p", 0.9}};
  json wire = with_typed_arrays(value);
  EXPECT_TRUE(wire["logits"].is_binary());
  EXPECT_EQ(wire["logits"].get_binary().subtype(), judge_harness::kFloat64ArrayTag);
  EXPECT_EQ(wire["logits"].get_binary().size(), 3 * sizeof(double));
  EXPECT_TRUE(wire["ids"].is_binary());
  EXPECT_EQ(wire["ids"].get_binary().subtype(), judge_harness::kInt64ArrayTag);
  EXPECT_EQ(wire["ids"].get_binary().size(), 3 * sizeof(std::int64_t));
  EXPECT_EQ(wire["mixed"], value["mixed"]);
  EXPECT_EQ(wire["seeds"], value["seeds"]);  // beyond int64: one item each
  EXPECT_EQ(wire["empty"], value["empty"]);
  EXPECT_TRUE(wire["nested"][0].is_binary());
  EXPECT_TRUE(wire["nested"][1].is_binary());
  EXPECT_EQ(through_cbor(value), value);
}

TEST(TypedArrays, KeepEveryDoubleBitForBit) {
  const double numbers[] = {0.1,
                            -0.0,
                            std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(),
                            std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::max()};
  json list = json::array();
  for (double number : numbers) list.push_back(number);
  json back = through_cbor(json{{"x", list}})["x"];
  ASSERT_EQ(back.size(), std::size(numbers));
  for (std::size_t i = 0; i < std::size(numbers); ++i) {
    ASSERT_TRUE(back[i].is_number_float()) << i;
    EXPECT_EQ(bits(back[i].get<double>()), bits(numbers[i])) << i;
  }
}

TEST(TypedArrays, KeepEveryInt64) {
  const std::int64_t numbers[] = {0, -1, 7, std::numeric_limits<std::int64_t>::min(),
                                  std::numeric_limits<std::int64_t>::max()};
  json list = json::array();
  for (std::int64_t number : numbers) list.push_back(number);
  list.push_back(static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));  // unsigned, fits
  json back = through_cbor(json{{"x", list}})["x"];
  ASSERT_EQ(back.size(), std::size(numbers) + 1);
  for (std::size_t i = 0; i < std::size(numbers); ++i) EXPECT_EQ(back[i].get<std::int64_t>(), numbers[i]) << i;
  EXPECT_EQ(back.back().get<std::int64_t>(), std::numeric_limits<std::int64_t>::max());
}

TEST(TypedArrays, AnythingElseTaggedIsRefused) {
  json untagged = json::binary({1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_FALSE(expand_typed_arrays(&untagged));
  json float32 = json::binary({0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}, 85);
  EXPECT_FALSE(expand_typed_arrays(&float32));
  json ragged = json::binary({1, 2, 3, 4, 5, 6, 7}, judge_harness::kFloat64ArrayTag);
  EXPECT_FALSE(expand_typed_arrays(&ragged));
  json ragged_ints = json::binary({1, 2, 3, 4, 5, 6, 7, 8, 9}, judge_harness::kInt64ArrayTag);
  EXPECT_FALSE(expand_typed_arrays(&ragged_ints));
  json uint64s = json::binary({1, 0, 0, 0, 0, 0, 0, 0}, 71);  // RFC 8746 uint64: not spoken here
  EXPECT_FALSE(expand_typed_arrays(&uint64s));
  json deep = {{"value", json::array({1, json::binary({1}, 7)})}};
  EXPECT_FALSE(expand_typed_arrays(&deep));
}

}  // namespace
}  // namespace judge
