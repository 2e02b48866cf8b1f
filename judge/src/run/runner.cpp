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
  std::vector<std::uint8_t> body =
      nlohmann::json::to_cbor(nlohmann::json{{"op", op_}, {"args", with_typed_arrays(args)}});
  frame_ = framed(std::string_view(reinterpret_cast<const char*>(body.data()), body.size()));
  reply_limit_ = kReplyBaseBytes + kReplyPerRequestByte * frame_.size();
}

}  // namespace judge
