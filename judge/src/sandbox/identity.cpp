// Runner user ids and dropping to them.
#include "sandbox/identity.hpp"

#include <grp.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>

namespace judge {

uid_t next_runner_uid() {
  static std::atomic<std::uint32_t> counter{0};
  std::uint32_t mixed = (static_cast<std::uint32_t>(getpid()) << 10) ^ counter++;
  return static_cast<uid_t>(0x50000000u + (mixed & 0x0fffffffu));
}

namespace sandbox_child {

bool drop_privileges(uid_t uid) {
  return setgroups(0, nullptr) == 0 && setresgid(kNobody, kNobody, kNobody) == 0 && setresuid(uid, uid, uid) == 0;
}

}  // namespace sandbox_child
}  // namespace judge
