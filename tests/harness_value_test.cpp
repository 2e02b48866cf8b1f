// The harness's Value: lists of integers stored flat read back exactly as a
// list of integer Values would, with the same range checks.
#include <gtest/gtest.h>

#include <cstdint>
#include <judge_harness/runner.hpp>
#include <judge_harness/value.hpp>
#include <limits>

namespace judge_harness {
namespace {

TEST(FlatIntegers, ReadBackAsIntsDoublesAndItems) {
  Value ids = Value::ints({3, -1, 0, 7});
  EXPECT_EQ(ids.kind(), Value::Kind::kIntegers);
  EXPECT_EQ(ids.as_ints(), (std::vector<int>{3, -1, 0, 7}));
  EXPECT_EQ(ids.as_doubles(), (std::vector<double>{3.0, -1.0, 0.0, 7.0}));
  const std::vector<Value>& items = ids.items();
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[1].as_int(), -1);
  EXPECT_EQ(items[3].as_int(), 7);
}

TEST(FlatIntegers, ArgumentsOfAMapReadTheSameWay) {
  Value args = Value::map();
  args.set("generated_ids", Value::integers({5, 5, 2}));
  args.set("seeds", Value::integers({0, std::numeric_limits<std::int64_t>::max()}));
  EXPECT_EQ(arg_ints(args, "generated_ids"), (std::vector<int>{5, 5, 2}));
  EXPECT_EQ(arg_seeds(args, "seeds"),
            (std::vector<std::uint64_t>{0, static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())}));
}

TEST(FlatIntegers, OutOfRangeIsABadRequest) {
  EXPECT_THROW(Value::integers({std::int64_t{1} << 40}).as_ints(), BadRequest);
  EXPECT_THROW(Value::integers({std::numeric_limits<std::int64_t>::min()}).as_ints(), BadRequest);
  EXPECT_THROW(Value::integers({-1}).as_uints(), BadRequest);
  EXPECT_THROW(Value::integers({1}).as_string(), BadRequest);
}

}  // namespace
}  // namespace judge_harness
