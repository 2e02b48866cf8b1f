// English text for the lab's models: the manual pages every Debian machine
// has, read at training and test time (never copied into the repository),
// their roff markup stripped to the characters the models know.
#pragma once

#include <string>
#include <vector>

namespace judge::lab {

// Which pages: a page belongs to the held-out split when a hash of its file
// name says so (about one page in ten), so the split is the same on every
// machine that has the page, and no page is in both.
enum class TextSplit { kTraining, kHeldOut };

// The pages of /usr/share/man/man1 to man8 (English; the translations in
// other folders are not read), of `split`, in file-name order, as one text
// of at most `max_bytes` characters, pages separated by a blank line.
// `man_root` moves the folder (tests). Empty when there are no pages.
std::string manual_text(TextSplit split, std::size_t max_bytes, const std::string& man_root = "/usr/share/man");

// One page's roff source as plain text: comments and requests dropped, the
// words of the font and heading macros kept, escapes resolved or dropped,
// every character outside the models' alphabet dropped.
std::string strip_roff(const std::string& roff);

// Whether `file_name` (a page's base name) is held out.
bool is_held_out(const std::string& file_name);

}  // namespace judge::lab
