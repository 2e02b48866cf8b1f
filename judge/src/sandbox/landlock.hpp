// Landlock (Linux 5.13+): the file system rules of a sandboxed child, and
// from ABI 4 its TCP rules, from ABI 6 its scopes (signals and abstract
// unix sockets). The kernel headers Debian 12 ships predate ABI 4; the
// newer fields and bits are stable kernel ABI, spelled out in landlock.cpp.
#pragma once

#include <string>

namespace judge {

// The kernel's Landlock ABI version; 0 with *missing saying why when there
// is none.
int probe_landlock(std::string* missing);

namespace sandbox_child {
// Called between fork and exec: only system calls, no allocation.
//
// The rules, built while still the judge's user (who can reach a checkout
// in a private directory such as /root), as a ruleset descriptor: read and
// execute beneath each of `readable`, everything beneath each of `writable`
// (both null-terminated arrays; a path that does not exist is skipped),
// read and execute of the file `executable_fd` refers to, no TCP (ABI 4),
// no signals or abstract sockets leaving the sandbox (ABI 6). -1 (errno
// set) on failure.
int filesystem_ruleset(int landlock_abi, const char* const* readable, const char* const* writable, int executable_fd);
// Sets no_new_privs and applies the ruleset, closing it; false (errno set)
// on failure.
bool enforce_ruleset(int ruleset);
}  // namespace sandbox_child

}  // namespace judge
