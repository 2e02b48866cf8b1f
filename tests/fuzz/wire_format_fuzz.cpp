// Fuzzes the judge's decoder of runner replies (run/wire_format.hpp): the
// bytes a runner sends are the learner's to choose. Any input must be
// decoded or refused with a reason, never crash, hang or read out of
// bounds; and what is decoded must survive the judge's own encoding
// unchanged (to_cbor with typed arrays, then decoded again).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "run/wire_format.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  nlohmann::json value;
  std::string problem;
  const std::string_view payload(reinterpret_cast<const char*>(data), size);
  if (!judge::decode_from_wire(payload, &value, &problem)) {
    if (problem.empty()) std::abort();  // a refusal always says why
    return 0;
  }
  const std::vector<std::uint8_t> again = nlohmann::json::to_cbor(judge::with_typed_arrays(value));
  nlohmann::json round_trip;
  std::string why;
  if (!judge::decode_from_wire(std::string_view(reinterpret_cast<const char*>(again.data()), again.size()), &round_trip,
                               &why))
    std::abort();  // the judge's own encoding of a decoded value is refused
  // NaN is unequal to itself; compare the encodings instead.
  if (nlohmann::json::to_cbor(judge::with_typed_arrays(round_trip)) != again) std::abort();
  return 0;
}
