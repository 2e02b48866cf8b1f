// Seals on what `judge grade` stores: each result file and summary.json
// carries "hmac", an HMAC-SHA-256 under the judge's grade key of the
// file's other members, so that a row planted or edited in the graded
// folder (or in a shard's report) is not taken for one the judge wrote.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "util/paths.hpp"

namespace judge {

class GradeSeal {
 public:
  // The key in the file JUDGE_GRADE_KEY_FILE names, else in
  // CACHE_DIR/grade-key, made on first use (util/secret_key.hpp). Throws
  // JudgeFault naming the file when it cannot be made or read.
  static GradeSeal load(const Paths& paths);

  // A seal with `key` and `key_file` (named in messages).
  GradeSeal(std::string key, std::string key_file);

  // `data` (an object) with "hmac" set to the seal of its other members as
  // a `kind` of file ("result", "summary"): a seal of one kind never
  // verifies as another.
  nlohmann::json seal(nlohmann::json data, std::string_view kind) const;

  // True when `data` is an object whose "hmac" is the seal this key gives
  // its other members as a `kind`.
  bool verifies(const nlohmann::json& data, std::string_view kind) const;

  // The key's file, as messages show it.
  const std::string& key_file() const { return key_file_; }

 private:
  std::string mac(const nlohmann::json& data, std::string_view kind) const;
  std::string key_;
  std::string key_file_;
};

}  // namespace judge
