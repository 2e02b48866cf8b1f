// `judge serve [--port P] [--no-open]`: the practice page on this machine.
// Prints http://127.0.0.1:P/?token=T, opens it with xdg-open where a
// desktop is there to show it, and serves until Ctrl-C (web/server.hpp;
// docs/web.md).
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "cli/command.hpp"
#include "util/errors.hpp"
#include "util/installation.hpp"
#include "web/guard.hpp"
#include "web/server.hpp"

extern char** environ;

namespace judge {
namespace fs = std::filesystem;
namespace {
// The port when none is asked for; another free one when it is taken.
constexpr int kDefaultPort = 8421;

// A file only the user can read that sends the browser on to `url`: a
// browser's command line is visible to every user of the machine (ps), the
// token must not be. Removed a minute later, once the browser has read it.
// Empty when it cannot be written.
std::string private_redirect_page(const std::string& url) {
  const char* runtime = std::getenv("XDG_RUNTIME_DIR");
  std::string path = (fs::path(runtime && *runtime ? runtime : "/tmp") / "judge-serve-XXXXXX.html").string();
  int fd = mkstemps(path.data(), 5);  // mode 0600
  if (fd < 0) return "";
  std::string page = fmt::format(
      "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url={0}\">"
      "<title>judge</title><p><a href=\"{0}\">Open the practice page</a></p>\n",
      url);
  bool written = write(fd, page.data(), page.size()) == static_cast<ssize_t>(page.size());
  close(fd);
  if (!written) {
    unlink(path.c_str());
    return "";
  }
  return path;
}

// Opens `url` in the desktop's browser, in the background. Only with a
// display: on a bare terminal xdg-open would start a text browser in it.
bool open_in_browser(const std::string& url) {
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value && *value;
  };
  if (!set("DISPLAY") && !set("WAYLAND_DISPLAY")) return false;
  // The browser xdg-open starts may outlive the judge: it must keep none of
  // the judge's descriptors (the server's sockets are opened close-on-exec;
  // this covers any other).
  std::error_code error;
  for (auto it = fs::directory_iterator("/proc/self/fd", error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    int fd = std::atoi(it->path().filename().c_str());
    if (fd > 2) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
  }
  // posix_spawnp looks it up in PATH; where there is none, it fails.
  std::string opener = "xdg-open";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int fd : {0, 1, 2})
    posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  std::string page = private_redirect_page(url);
  if (page.empty()) return false;
  std::vector<char*> argv = {const_cast<char*>(opener.c_str()), page.data(), nullptr};
  pid_t pid = -1;
  int failed = posix_spawnp(&pid, opener.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) {
    unlink(page.c_str());
    return false;
  }
  std::thread([pid, page] {
    waitpid(pid, nullptr, 0);
    std::this_thread::sleep_for(std::chrono::minutes(1));
    unlink(page.c_str());
  }).detach();
  return true;
}

class ServeCommand : public Command {
 public:
  void define(CLI::App& command) override {
    port_option_ = command.add_option("--port", port_, "the port on 127.0.0.1 (default 8421, or a free one; 0: any)")
                       ->check(CLI::Range(0, 65535));
    command.add_flag("--no-open", no_open_, "print the URL only; do not open a browser");
  }

  int run(const CommandContext& context) override {
    const std::string token = new_web_token();
    WebServer server({context.paths, token, (fs::path(this_installation().root) / "web").string(), WebLimits{}});
    const bool chosen = port_option_->count() > 0;
    int port = server.bind(chosen ? port_ : kDefaultPort);
    if (port < 0 && !chosen) port = server.bind(0);
    if (port < 0) throw JudgeFault{fmt::format("serve: cannot listen on 127.0.0.1:{} (in use?)", port_)};
    for (const std::string& missing : server.missing_assets())
      fmt::print(stderr, "judge serve: missing {}; install it with apt-get\n", missing);
    std::string url = fmt::format("http://127.0.0.1:{}/?token={}", port, token);
    fmt::print("{}\n", url);
    std::fflush(stdout);
    bool opened = !no_open_ && open_in_browser(url);
    fmt::print(stderr, "judge serve: {} the page above; it listens on 127.0.0.1 only; Ctrl-C stops\n",
               opened ? "opened" : "open");
    server.serve();
    return 0;
  }

 private:
  int port_ = kDefaultPort;
  bool no_open_ = false;
  CLI::Option* port_option_ = nullptr;
};
}  // namespace

std::unique_ptr<Command> make_serve_command() { return std::make_unique<ServeCommand>(); }

}  // namespace judge
