// What must not outlive the judge when it is stopped. On SIGINT, SIGTERM or
// SIGHUP the registered process groups are killed, then the registered
// cgroups and scratch directories are removed, and the judge ends as the
// signal would have ended it. (A judge killed outright leaves them to the
// next judge, which removes those of judges that are gone.)
//
// The signal handler only writes the signal's number to a pipe; a thread of
// its own does the work, which is not async-signal-safe.
#pragma once

#include <sys/types.h>

#include <string>

namespace judge {

// Installs the handlers and starts the thread; once per process, from
// main(). Without it, registering is harmless and nothing is cleaned up on
// a signal.
void install_termination_cleanup();

void register_process_group(pid_t group);
void unregister_process_group(pid_t group);
void register_cgroup(const std::string& directory);
void unregister_cgroup(const std::string& directory);
void register_scratch_dir(const std::string& directory);
void unregister_scratch_dir(const std::string& directory);

}  // namespace judge
