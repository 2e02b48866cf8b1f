// A scratch JUDGE_ROOT holding a fixture package (tests/fixtures/NAME:
// problems/, solutions/, harness/problems/) beside the repository's
// harness, so that a test judges a problem of its own and depends on none
// of the course's.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace judge::testing {

inline std::filesystem::path scratch_root(const std::string& fixture_name, const std::string& scratch_name) {
  namespace fs = std::filesystem;
  fs::path root = fs::path(JUDGE_TEST_BINARY_DIR) / "scratch_roots" / scratch_name;
  fs::path fixture = fs::path(JUDGE_TESTS_DIR) / "fixtures" / fixture_name;
  fs::remove_all(root);
  fs::create_directories(root);
  fs::copy(fs::path(JUDGE_SOURCE_DIR) / "harness", root / "harness", fs::copy_options::recursive);
  fs::copy(fixture / "harness", root / "harness", fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  fs::copy(fixture / "problems", root / "problems", fs::copy_options::recursive);
  fs::copy(fixture / "solutions", root / "solutions", fs::copy_options::recursive);
  return root;
}

// A scratch root of `fixture_name` for one test process (ctest runs each
// test in one of its own), with an empty workspace/, removed when it ends.
class ScratchRoot {
 public:
  ScratchRoot(const std::string& fixture_name, const std::string& prefix)
      : dir_(scratch_root(fixture_name, prefix + std::to_string(getpid()))) {
    std::filesystem::create_directories(dir_ / "workspace");
  }
  ~ScratchRoot() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  ScratchRoot(const ScratchRoot&) = delete;
  ScratchRoot& operator=(const ScratchRoot&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace judge::testing
