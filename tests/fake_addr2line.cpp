// An addr2line that misbehaves, for the tests of the sandboxed addr2line
// (check/addr2line_run.hpp). What it does is chosen by the name it is
// started under: "answers" prints an answer for each address, "looks"
// prints what of the file system it can see and read, "hogs" touches a
// gibibyte.
#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string name = argv[0];
  name = name.substr(name.rfind('/') + 1);
  if (name == "answers") {
    for (int i = 1; i < argc; ++i)
      if (std::strncmp(argv[i], "0x", 2) == 0) std::printf("%s\nf()\n/judge-build/solution.hpp:7\n", argv[i]);
    return 0;
  }
  if (name == "looks") {
    // The runner it was given, then everything at the top of its view and
    // whether the judge's user's files can be read.
    for (int i = 1; i + 1 < argc; ++i)
      if (std::strcmp(argv[i], "-e") == 0)
        std::printf("binary %s readable %d\n", argv[i + 1], access(argv[i + 1], R_OK) == 0);
    if (DIR* root = opendir("/")) {
      while (dirent* entry = readdir(root)) std::printf("top %s\n", entry->d_name);
      closedir(root);
    }
    for (int i = 1; i < argc; ++i)
      if (std::strncmp(argv[i], "--secret=", 9) == 0) {
        std::ifstream in(argv[i] + 9);
        std::string line;
        std::printf("secret %s\n", in && std::getline(in, line) ? line.c_str() : "unreadable");
      }
    return 0;
  }
  if (name == "hogs") {
    std::vector<char> block(1u << 30);
    for (std::size_t i = 0; i < block.size(); i += 4096) block[i] = 1;
    std::printf("held %zu\n", block.size());
    return 0;
  }
  return 1;
}
