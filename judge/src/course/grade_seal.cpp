// Sealing grade's files with the judge's key (grade_seal.hpp).
#include "course/grade_seal.hpp"

#include <cstdlib>
#include <filesystem>

#include "package/result_codec.hpp"
#include "util/fingerprint.hpp"
#include "util/secret_key.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
constexpr const char* kSealMember = "hmac";
constexpr const char* kKeyFileVariable = "JUDGE_GRADE_KEY_FILE";
}  // namespace

GradeSeal GradeSeal::load(const Paths& paths) {
  const char* chosen = std::getenv(kKeyFileVariable);
  std::string file =
      chosen && *chosen ? std::string(chosen) : (std::filesystem::path(paths.cache_dir) / kCacheKeyFile).string();
  std::string key = load_or_create_secret(file);
  return GradeSeal(std::move(key), display_path(file));
}

GradeSeal::GradeSeal(std::string key, std::string key_file) : key_(std::move(key)), key_file_(std::move(key_file)) {}

std::string GradeSeal::mac(const nlohmann::json& data, std::string_view kind) const {
  nlohmann::json members = data;
  members.erase(kSealMember);
  // One line of JSON with its members sorted: the same text however the
  // file was indented, and after any number of reads and writes.
  std::string message = "judge grade ";
  message += kind;
  message += '\n';
  message += json_text(members);
  return hmac_sha256_hex(key_, message);
}

nlohmann::json GradeSeal::seal(nlohmann::json data, std::string_view kind) const {
  data[kSealMember] = mac(data, kind);
  return data;
}

bool GradeSeal::verifies(const nlohmann::json& data, std::string_view kind) const {
  if (!data.is_object() || !data.contains(kSealMember) || !data[kSealMember].is_string()) return false;
  return equal_in_constant_time(data[kSealMember].get<std::string>(), mac(data, kind));
}

}  // namespace judge
