// judge-lab-corpus training|held-out: the lab's text on stdout
// (lab/man_text.hpp), for model/train.py and for checking the split.
#include <cstdio>
#include <cstring>
#include <string>

#include "lab/man_text.hpp"

int main(int argc, char** argv) {
  const bool held_out = argc == 2 && std::strcmp(argv[1], "held-out") == 0;
  if (argc != 2 || (!held_out && std::strcmp(argv[1], "training") != 0)) {
    std::fprintf(stderr, "usage: judge-lab-corpus training|held-out\n");
    return 2;
  }
  const std::string text = judge::lab::manual_text(
      held_out ? judge::lab::TextSplit::kHeldOut : judge::lab::TextSplit::kTraining, std::string::npos);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return text.empty() ? 1 : 0;
}
