// Requests, encoded once.
#include "run/runner.hpp"

#include "run/wire_format.hpp"

namespace judge {

std::string framed(std::string_view payload) {
  std::uint32_t size = static_cast<std::uint32_t>(payload.size());
  std::string out;
  out.reserve(4 + payload.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(size >> (8 * i)));
  out.append(payload);
  return out;
}

Request::Request(std::string op, const nlohmann::json& args) : op_(std::move(op)) {
  // Written after room for the length, into a string: the library appends
  // to a string in one step, to a vector a byte at a time (tens of
  // milliseconds for a request of 262,144 numbers).
  frame_.assign(4, '\0');
  nlohmann::json::to_cbor(nlohmann::json{{"op", op_}, {"args", with_typed_arrays(args)}}, frame_);
  const std::uint32_t size = static_cast<std::uint32_t>(frame_.size() - 4);
  for (int i = 0; i < 4; ++i) frame_[static_cast<std::size_t>(i)] = static_cast<char>(size >> (8 * i));
  reply_limit_ = kReplyBaseBytes + kReplyPerRequestByte * frame_.size();
}

}  // namespace judge
