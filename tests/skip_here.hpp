// JUDGE_SKIP() << "why";  where a test cannot run on this machine.
//
// It skips, except in CI as root: there `bin/setup --all-targets` has
// installed what every test needs and root has every protection the kernel
// offers, so a test that would skip is a defect of the machine or of setup,
// and it fails instead of passing unseen. The unprivileged reruns (as
// nobody, where some protections do not exist by design) still skip.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace judge::testing {

inline bool every_test_must_run() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::strcmp(ci, "true") == 0 && geteuid() == 0;
}

}  // namespace judge::testing

// GTEST_SKIP() or GTEST_FAIL() with the same message: both are an
// AssertHelper of their kind, returning from the test.
#define JUDGE_SKIP()                                                                                                   \
  return ::testing::internal::AssertHelper(                                                                            \
             ::judge::testing::every_test_must_run() ? ::testing::TestPartResult::kFatalFailure                        \
                                                     : ::testing::TestPartResult::kSkip,                               \
             __FILE__, __LINE__,                                                                                       \
             ::judge::testing::every_test_must_run() ? "CI runs every test as root, and this one cannot run: " : "") = \
             ::testing::Message()
