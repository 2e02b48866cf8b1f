// The lab's models and their text: the shipped weights load and beat a
// bigram model on held-out manual pages (both figures printed), a damaged
// weights file is refused with its reason, the roff markup is stripped, the
// held-out split is the same everywhere, and the model's cached attention
// gives what full attention recomputed from scratch gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "lab/evaluation.hpp"
#include "lab/man_text.hpp"
#include "lab/model.hpp"
#include "util/errors.hpp"
#include "util/files.hpp"

namespace judge::lab {
namespace {
namespace fs = std::filesystem;

const std::string kShipped = std::string(JUDGE_SOURCE_DIR) + "/model/lab_models.bin";

TEST(LabModel, ShippedWeightsBeatABigramOnHeldOutManualPages) {
  const std::vector<Model> models = load_models(kShipped);
  ASSERT_EQ(models.size(), 2u);
  const std::vector<int> held_out = encode(manual_text(TextSplit::kHeldOut, 4 << 20));
  const std::vector<int> training = encode(manual_text(TextSplit::kTraining, 32 << 20));
  ASSERT_GT(held_out.size(), 100000u) << "too few manual pages under /usr/share/man to measure on; "
                                         "bin/setup --all-targets installs the manpages package";
  const int windows = 24, size = models[0].shape().context;
  const double bigram = bigram_loss(training, held_out, windows, size);
  const double target = model_loss(models[0], held_out, windows);
  const double draft = model_loss(models[1], held_out, windows);
  std::printf(
      "held-out manual pages, nats per character over %d windows of %d: target %.3f, draft %.3f, "
      "bigram %.3f\n",
      windows, size, target, draft, bigram);
  // "Far below": half a nat a character is a factor of 1.6 in perplexity.
  EXPECT_LT(target, bigram - 0.5);
  EXPECT_LT(draft, bigram - 0.2);
  EXPECT_LT(target, draft);                                            // the draft is the smaller, weaker model
  EXPECT_LT(models[0].shape().n_kv_heads, models[0].shape().n_heads);  // grouped-query attention
}

TEST(LabModel, ADamagedWeightsFileIsRefusedWithItsReason) {
  const std::string bytes = *read_file(kShipped);
  const fs::path dir = fs::temp_directory_path() / ("lab_model_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto refused = [&](const std::string& content) {
    const std::string path = (dir / "weights.bin").string();
    std::ofstream(path, std::ios::binary) << content;
    try {
      load_models(path);
    } catch (const JudgeFault& e) {
      return e.message;
    }
    return std::string("loaded");
  };
  EXPECT_NE(refused(bytes.substr(0, bytes.size() - 4)).find("cut short"), std::string::npos);
  EXPECT_NE(refused(bytes + "x").find("bytes after the last model"), std::string::npos);
  EXPECT_NE(refused("NOTMODEL" + bytes.substr(8)).find("not a weights file"), std::string::npos);
  std::string bad_shape = bytes;
  bad_shape[12] = 7;  // the first model's vocabulary
  EXPECT_NE(refused(bad_shape).find("vocabulary has 7 tokens"), std::string::npos);
  bad_shape = bytes;
  bad_shape[32] = 0;  // the first model's key/value heads
  EXPECT_NE(refused(bad_shape).find("shape makes no sense"), std::string::npos);
  EXPECT_EQ(refused(bytes), "loaded");
  fs::remove_all(dir);
}

TEST(LabModel, CachedAttentionGivesWhatFullAttentionGives) {
  const Model model = load_models(kShipped)[1];
  const std::vector<int> tokens = encode("the kernel schedules");
  // Cached: one token at a time. Full: every prefix read again from scratch.
  CausalAttention cached(model.shape());
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    const Eigen::VectorXd step =
        model.next_logits(tokens[t], static_cast<int>(t),
                          [&](int l, const auto& q, const auto& k, const auto& v) { return cached.step(l, q, k, v); });
    CausalAttention fresh(model.shape());
    Eigen::VectorXd full;
    for (std::size_t i = 0; i <= t; ++i)
      full = model.next_logits(tokens[i], static_cast<int>(i), [&](int l, const auto& q, const auto& k, const auto& v) {
        return fresh.step(l, q, k, v);
      });
    EXPECT_LT((step - full).cwiseAbs().maxCoeff(), 1e-12) << "at position " << t;
  }
}

TEST(ManText, StripsRoffToItsWords) {
  const std::string roff =
      ".\\\" a comment\n"
      ".TH LS 1\n"
      ".SH NAME\n"
      "ls \\- list directory contents\n"
      ".SH DESCRIPTION\n"
      "List information about the \\fBFILE\\fRs\n"
      "(the current directory by default).\n"
      ".BR ls (1)\n"
      ".PP\n"
      "Sort \\(em alphabetically\\&.\n";
  EXPECT_EQ(strip_roff(roff),
            "NAME\nls - list directory contents\nDESCRIPTION\n"
            "List information about the FILEs (the current directory by default). ls(1)\n"
            "Sort -- alphabetically.\n");
}

TEST(ManText, TheHeldOutSplitIsAboutATenthAndTheSameEverywhere) {
  int held = 0;
  for (int i = 0; i < 10000; ++i) held += is_held_out("page" + std::to_string(i) + ".1.gz");
  EXPECT_GT(held, 800);
  EXPECT_LT(held, 1200);
  EXPECT_EQ(is_held_out("ls.1.gz"), is_held_out(std::string("ls.1.gz")));
}

TEST(ManText, ReadsOnlyThePagesOfItsSplit) {
  const fs::path root = fs::temp_directory_path() / ("man_text_" + std::to_string(::getpid()));
  fs::create_directories(root / "man1");
  int names = 0;
  for (int i = 0; names < 2; ++i) {
    const std::string name = "p" + std::to_string(i) + ".1.gz";
    if (!is_held_out(name)) continue;
    // gzip of a page written by the system's gzip, as Debian ships them
    const fs::path plain = root / "man1" / ("p" + std::to_string(i) + ".1");
    std::ofstream(plain) << ".SH HELD\n" << std::string(300, 'h') << "\n";
    ASSERT_EQ(std::system(("gzip -n " + plain.string()).c_str()), 0);
    ++names;
  }
  std::ofstream(root / "man1" / "other.1") << "not compressed: not read";
  EXPECT_EQ(manual_text(TextSplit::kHeldOut, 1 << 20, root.string()).size(), 2 * (5 + 301) + 2u);
  EXPECT_EQ(manual_text(TextSplit::kTraining, 1 << 20, root.string()), "");
  fs::remove_all(root);
}

}  // namespace
}  // namespace judge::lab
