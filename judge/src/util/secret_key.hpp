// The judge's own secret key, kept in a file only its user can read: what
// the judge stores where others can write (judge grade's results, in the
// folder being graded) is sealed with it, so that a planted or edited file
// is told from one the judge wrote.
#pragma once

#include <cstddef>
#include <string>

namespace judge {

// The fewest bytes a key file may hold; a new key has this many.
constexpr std::size_t kSecretKeyBytes = 32;

// The key's file in the judge's cache directory. It is no cache: `judge
// cache clear` keeps it, so that what it sealed stays trusted.
constexpr const char* kCacheKeyFile = "grade-key";

// The key in `file`. When `file` does not exist it is made first: 32
// random bytes (OpenSSL's RAND_bytes), mode 0600, written whole under
// another name and linked into place, so that judges starting at once
// all end up with the same key. Its directory is made when missing.
// Throws JudgeFault naming `file` when it cannot be made or read, is a
// symbolic link or not a regular file, holds fewer than kSecretKeyBytes or
// more than 4096 bytes, or can be read or written by anyone but its owner
// (the message says to chmod 600 it).
std::string load_or_create_secret(const std::string& file);

}  // namespace judge
