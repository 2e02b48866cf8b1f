// The runner channel's CBOR: which lists become typed arrays, that they
// survive bit for bit, that the channel's reader agrees with nlohmann's on
// everything the writer makes, and refuses everything else.
#include "run/wire_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <judge_harness/channel_cbor.hpp>
#include <judge_harness/protocol.hpp>
#include <judge_harness/utf8.hpp>
#include <limits>
#include <random>
#include <string>

#include "run/number_list.hpp"
#include "through_channel.hpp"

namespace judge {
namespace {
using nlohmann::json;

json through_cbor(const json& value) { return expanded(testing::through_channel(value)); }

// Why the channel's reader refuses `bytes`; empty when it decodes them.
std::string refusal(const std::string& bytes) {
  json decoded;
  std::string problem;
  return decode_from_wire(bytes, &decoded, &problem) ? "" : problem;
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

TEST(TypedArrays, DoublesStayOneByteStringAndIntegersBecomeAList) {
  json back = testing::through_channel({{"probs", {0.25, 0.75}}, {"ids", {4, -1}}, {"rows", {{1.5}, {2.5}}}});
  ASSERT_TRUE(is_typed_doubles(back["probs"]));
  EXPECT_EQ(back["probs"].get_binary().size(), 2 * sizeof(double)) << "one byte string, no JSON number per entry";
  EXPECT_EQ(doubles_of(back["probs"]), (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(back["ids"], json::parse("[4, -1]"));
  ASSERT_TRUE(back["rows"].is_array());
  EXPECT_TRUE(is_typed_doubles(back["rows"][1]));
  EXPECT_EQ(expanded(back), json::parse(R"({"probs": [0.25, 0.75], "ids": [4, -1], "rows": [[1.5], [2.5]]})"));
}

TEST(NumberList, ReadsATypedArrayAndAJsonListAlike) {
  const json plain = {0.5, -2.0, 3, "x"};
  const json typed = testing::through_channel(json{0.5, -2.0, 3.5});
  ASSERT_TRUE(is_list(plain));
  ASSERT_TRUE(is_list(typed));
  EXPECT_FALSE(is_list(json(0.5)));
  EXPECT_EQ(list_size(typed), 3u);
  EXPECT_EQ(list_size(json("text")), 0u);
  const NumberList from_json(plain), from_bytes(typed);
  EXPECT_EQ(from_json.size(), 4u);
  EXPECT_TRUE(from_json.is_number(2));
  EXPECT_FALSE(from_json.is_number(3));
  EXPECT_EQ(from_json[1], -2.0);
  EXPECT_EQ(from_bytes[2], 3.5);
  EXPECT_EQ(from_bytes[0], 0.5);
  EXPECT_EQ(from_json[0], 0.5);
  EXPECT_THROW(doubles_of(plain), json::type_error) << "a list with a string is not a list of numbers";
}

TEST(ChannelCbor, DecodesWhatTheWriterMakesAsNlohmannDoes) {
  // Random values of every kind the writer has: small and large integers of
  // both signs, floats that fit a half, a single or only a double, NaN and
  // infinities, strings, booleans, null, nested lists and maps.
  std::mt19937_64 random(20261202);
  std::function<json(int)> make = [&](int depth) -> json {
    switch (random() % (depth > 3 ? 6 : 8)) {
      case 0: return static_cast<std::uint64_t>(random() >> (random() % 64));
      case 1: return -static_cast<std::int64_t>(random() >> (1 + random() % 63)) - 1;
      case 2: {
        const double special[] = {0.5,
                                  -0.0,
                                  1e300,
                                  65504.0,
                                  1.0 / 3,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  5.960464477539063e-08};
        return random() % 2 ? special[random() % std::size(special)] : std::ldexp(double(random() % 4096), -6);
      }
      case 3: return std::string(random() % 40, static_cast<char>('a' + random() % 26));
      case 4: return random() % 2 == 0;
      case 5: return nullptr;
      case 6: {
        json list = json::array();
        for (int i = 0, n = static_cast<int>(random() % 30); i < n; ++i) list.push_back(make(depth + 1));
        return list;
      }
      default: {
        json map = json::object();
        for (int i = 0, n = static_cast<int>(random() % 6); i < n; ++i)
          map[std::string(1 + random() % 8, static_cast<char>('a' + random() % 26))] = make(depth + 1);
        return map;
      }
    }
  };
  for (int round = 0; round < 2000; ++round) {
    json value = make(0);
    std::vector<std::uint8_t> bytes = json::to_cbor(value);
    json ours;
    std::string problem;
    ASSERT_TRUE(
        decode_from_wire(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), &ours, &problem))
        << problem << " on " << value.dump();
    // dump() tells 1 from 1.0 and keeps NaN's place (null), so equal dumps
    // mean equal values of equal types.
    EXPECT_EQ(ours.dump(), json::from_cbor(bytes).dump()) << value.dump();
  }
  // A half-precision NaN, as the writer encodes one.
  json nan_back;
  std::string problem;
  ASSERT_TRUE(decode_from_wire(std::string("\xf9\x7e\x00", 3), &nan_back, &problem)) << problem;
  EXPECT_TRUE(std::isnan(nan_back.get<double>()));
}

TEST(ChannelCbor, RefusesWhatNeitherSideWrites) {
  EXPECT_EQ(refusal("\xd8\x55\x48" + std::string(8, '\0')), "a tag other than a typed array's");  // float32
  EXPECT_EQ(refusal("\xd8\x47\x48" + std::string(8, '\0')), "a tag other than a typed array's");  // uint64
  EXPECT_EQ(refusal("\xd8\x56\x47" + std::string(7, '\0')), "a typed array whose size is not a multiple of 8 bytes");
  EXPECT_EQ(refusal("\xd8\x4f\x49" + std::string(9, '\0')), "a typed array whose size is not a multiple of 8 bytes");
  EXPECT_EQ(refusal("\xd8\x56\x01"), "a tag on something other than a byte string");
  EXPECT_EQ(refusal("\x48" + std::string(8, '\0')), "a byte string outside a typed array");
  EXPECT_EQ(refusal("\x9f\x01\xff"), "an indefinite length or a reserved head");
  EXPECT_EQ(refusal("\x82\x01"), "truncated");
  EXPECT_EQ(refusal("\x9a\xff\xff\xff\xff"), "truncated");  // a count no payload could hold
  EXPECT_EQ(refusal("\x65val"), "truncated");
  EXPECT_EQ(refusal(std::string("\x01\x02", 2)), "trailing bytes after the item");
  EXPECT_EQ(refusal("\xa1\x01\x02"), "a map key that is not a text string");
  EXPECT_EQ(refusal("\x3b\xff\xff\xff\xff\xff\xff\xff\xff"), "a negative integer below int64");
  EXPECT_EQ(refusal("\xf7"), "a simple value other than false, true or null");  // undefined
  EXPECT_EQ(refusal(""), "truncated");
  // Nesting: as deep as the limit decodes, one more level does not.
  const int limit = judge_harness::kMaxChannelDepth;
  EXPECT_EQ(refusal(std::string(limit, '\x81') + '\x00'), "");
  EXPECT_EQ(refusal(std::string(limit + 1, '\x81') + '\x00'), "nested too deeply");
  EXPECT_EQ(refusal(std::string(1000000, '\x81') + '\x00'), "nested too deeply");
}

// Text: both sides write only UTF-8 (the harness spells out a learner's
// other bytes), so a reply holding any other text was forged.
TEST(ChannelCbor, RefusesTextThatIsNotUtf8) {
  const std::string kNotUtf8 = "a text string that is not valid UTF-8";
  EXPECT_EQ(refusal("\x62\xff\xfe"), kNotUtf8);                      // bytes no sequence starts with
  EXPECT_EQ(refusal("\x62\xc3\x28"), kNotUtf8);                      // a sequence cut short
  EXPECT_EQ(refusal("\x62\xc0\xaf"), kNotUtf8);                      // an overlong '/'
  EXPECT_EQ(refusal("\x63\xed\xa0\x80"), kNotUtf8);                  // a surrogate
  EXPECT_EQ(refusal("\x64\xf4\x90\x80\x80"), kNotUtf8);              // past U+10FFFF
  EXPECT_EQ(refusal("\xa1\x61\xff\x01"), kNotUtf8);                  // in a map key
  EXPECT_EQ(refusal("\xa1\x61\x61\x82\x01\x81\x61\x80"), kNotUtf8);  // nested in a value
  EXPECT_EQ(refusal("\x6e"
                    "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80"),
            "")
      << "valid text of 2, 3 and 4 bytes";
  EXPECT_EQ(refusal("\x63\xef\xbf\xbd"), "") << "U+FFFD itself is text";
}

TEST(Utf8, ValidatesAsTheStandardSays) {
  using judge_harness::is_valid_utf8;
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain"));
  EXPECT_TRUE(is_valid_utf8("\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"))
      << "the first and last of each range";
  for (const char* bad : {"\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xed\xa0\x80", "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80",
                          "\xf5\x80\x80\x80", "\xe2\x82", "\xe2\x28\xa1", "\xff"})
    EXPECT_FALSE(is_valid_utf8(bad)) << ::testing::PrintToString(std::string(bad));
}

TEST(Utf8, EscapingSpellsOutEveryInvalidByteAndKeepsText) {
  using judge_harness::with_invalid_utf8_escaped;
  EXPECT_EQ(with_invalid_utf8_escaped("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(with_invalid_utf8_escaped("a\xff\xfe"
                                      "b"),
            "a\\xff\\xfeb");
  EXPECT_EQ(with_invalid_utf8_escaped("\xe2\x82"
                                      "x"),
            "\\xe2\\x82x")
      << "a sequence cut short, byte by byte";
  EXPECT_TRUE(judge_harness::is_valid_utf8(with_invalid_utf8_escaped("\xc0\xaf\xed\xa0\x80\x80")));
}

}  // namespace
}  // namespace judge
