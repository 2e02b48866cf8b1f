// Writing a .zip archive (libzip): files given whole, with Unix modes, so
// that a script packed in it stays executable when it is unpacked.
#pragma once

#include <deque>
#include <string>

struct zip;

namespace judge {

class ZipWriter {
 public:
  // Starts `path` (replacing it once close() succeeds). Throws JudgeFault.
  explicit ZipWriter(const std::string& path);
  ~ZipWriter();  // an archive never closed is discarded
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  // Adds `content` as `name` (a relative path with '/'). Throws JudgeFault.
  void add(const std::string& name, std::string content, bool executable = false);
  // Writes the archive. Throws JudgeFault.
  void close();

 private:
  std::string path_;
  struct zip* archive_ = nullptr;
  std::deque<std::string> contents_;  // libzip reads them at close()
};

}  // namespace judge
