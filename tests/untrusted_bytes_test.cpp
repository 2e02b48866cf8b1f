// What a submission's bytes become on their way out: text for a terminal,
// a stored excerpt of a returned value, a file name under results/, a
// spreadsheet cell.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "course/grade.hpp"
#include "package/result_codec.hpp"
#include "util/text.hpp"

namespace judge {
namespace {
using nlohmann::json;

TEST(TerminalSafe, ShowsControlCharactersAsText) {
  EXPECT_EQ(terminal_safe("plain text, with\ttabs and\nnewlines"), "plain text, with\ttabs and\nnewlines");
  EXPECT_EQ(terminal_safe("\r\x1b[2K  pass"), "\\x0d\\x1b[2K  pass");
  EXPECT_EQ(terminal_safe("\x1b]52;c;ZWNobw==\a"), "\\x1b]52;c;ZWNobw==\\x07");
  EXPECT_EQ(terminal_safe(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(terminal_safe("\x7f"), "\\x7f");
}

TEST(TerminalSafe, ALineKeepsNeitherNewlineNorTabButEscapesTheRestAlike) {
  EXPECT_EQ(terminal_safe_line("a.hpp\n[2/2] b.hpp: accepted\tc"), "a.hpp\\x0a[2/2] b.hpp: accepted\\x09c");
  EXPECT_EQ(terminal_safe_line("\r\x1b[2K \xff \xe2\x80\xae caf\xc3\xa9"), "\\x0d\\x1b[2K \\xff \\u202e caf\xc3\xa9");
}

TEST(TerminalSafe, ShowsC1ControlsInvalidUtf8AndBidiOverridesAsText) {
  EXPECT_EQ(terminal_safe("\xc2\x9b"
                          "31m"),
            "\\u009b31m");  // the one-character CSI
  EXPECT_EQ(terminal_safe("\xff\xfe ok"), "\\xff\\xfe ok");
  EXPECT_EQ(terminal_safe("\xe2\x80\xae"
                          "evil"),
            "\\u202eevil");  // right-to-left override
  EXPECT_EQ(terminal_safe("caf\xc3\xa9 \xe2\x9c\x93 \xef\xbf\xbd"), "caf\xc3\xa9 \xe2\x9c\x93 \xef\xbf\xbd")
      << "valid text stays";
}

TEST(ReturnedExcerpt, KeepsSmallValuesAndBoundsLargeOnes) {
  json small = {1.0, 2.0, 3.0};
  EXPECT_EQ(returned_excerpt(small), small);
  json large = json::array();
  for (int i = 0; i < 100000; ++i) large.push_back(0.123456789 * i);
  json excerpt = returned_excerpt(large);
  EXPECT_LE(json_text(excerpt).size(), kReturnedExcerptBytes);
  EXPECT_EQ(excerpt["items"], 100000);
  EXPECT_EQ(excerpt["bytes"], json_text(large).size());
  ASSERT_FALSE(excerpt["excerpt"].empty());
  EXPECT_EQ(excerpt["excerpt"][1], large[1]);
  json huge_string = std::string(1 << 20, 'x');
  EXPECT_LE(json_text(returned_excerpt(huge_string)).size(), kReturnedExcerptBytes);
}

TEST(ResultFileName, GivesEveryNameAFileOfItsOwn) {
  EXPECT_EQ(result_file_name("alice.hpp"), "alice.hpp.json");
  std::set<std::string> names;
  for (std::string name : {std::string("odd \"name\"\\ with\nlines.hpp"), std::string("odd _name__ with_lines.hpp"),
                           std::string("\x1b[31mred.hpp"), std::string("\xff\xfe.hpp"), std::string(250, 'a') + ".hpp",
                           std::string(250, 'a') + "b.hpp", std::string("=cmd|' /C calc'!A0.hpp")}) {
    std::string file = result_file_name(name);
    EXPECT_LE(file.size(), 130u) << name;
    EXPECT_EQ(file.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+"),
              std::string::npos)
        << file;
    names.insert(file);
  }
  EXPECT_EQ(names.size(), 7u) << "two names share a results file";
}

TEST(GradeCsv, NeutralizesFormulas) {
  auto row = [](const std::string& submission, const std::string& message) {
    GradeRow r;
    r.submission = submission;
    r.verdict = "wrong_answer";
    r.message = message;
    return r;
  };
  std::string csv = grade_summary_csv({row("=HYPERLINK(\"http://x\",\"y\").hpp", "@SUM(A1)"), row("+1.hpp", "-2"),
                                       row("\tx.hpp", "fine"), row("plain.hpp", "a = b")});
  EXPECT_NE(csv.find("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\").hpp\",wrong_answer,0,0,0.000,,'@SUM(A1)\r\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\r\n'+1.hpp,wrong_answer,0,0,0.000,,'-2\r\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\r\n'\tx.hpp,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\r\nplain.hpp,wrong_answer,0,0,0.000,,a = b\r\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace judge
