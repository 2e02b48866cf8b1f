// Environment settings: flags and integers.
#include "util/environment.hpp"

#include <strings.h>

#include <cstdlib>
#include <initializer_list>

namespace judge {

bool environment_flag(const char* name) {
  const char* text = std::getenv(name);
  if (!text) return false;
  for (const char* on : {"1", "true", "yes"})
    if (strcasecmp(text, on) == 0) return true;
  return false;
}

std::int64_t environment_integer(const char* name, std::int64_t low, std::int64_t high, std::int64_t fallback) {
  const char* text = std::getenv(name);
  if (!text) return fallback;
  char* end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  return end != text && *end == '\0' && value >= low && value <= high ? value : fallback;
}

}  // namespace judge
