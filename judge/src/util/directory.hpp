// A directory held open by its descriptor, for writing where others can
// place files: every name is looked up in the directory itself (never
// through a path that may be replaced meanwhile) and no symbolic link in
// it is followed, so what is read and written stays inside it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "util/files.hpp"

namespace judge {

class Directory {
 public:
  // Opens `path`, creating it and its parents when `create`; links on the
  // way are followed (the path is the caller's choice). Throws JudgeFault
  // naming it when it cannot be opened or made.
  static Directory open(const std::string& path, bool create);

  // The directory `name` inside this one, made (mode 0755) when missing
  // and `create`. Throws JudgeFault naming it when it is missing (without
  // `create`), cannot be made, or is a symbolic link or anything but a
  // directory: "PATH is a symbolic link: refusing to read or write through
  // it".
  Directory child(const std::string& name, bool create) const;

  // `name`'s content when it is a regular file of at most `max_bytes`; a
  // symbolic link is never followed (kNotRegular). See read_regular_file().
  std::optional<std::string> read(const std::string& name, std::uint64_t max_bytes, ReadRefusal* refusal,
                                  int* error_number = nullptr) const;

  // Writes `name` atomically (write_file_atomically_at): a link at `name`
  // is replaced, never written through. Throws JudgeFault.
  void write(const std::string& name, const std::string& content) const;

  // Removes the temporary files an interrupted write left here.
  void remove_write_leftovers() const;

  // The path this directory was opened as, and the path of `name` in it:
  // for messages.
  const std::string& path() const { return path_; }
  std::string path_of(const std::string& name) const;

  Directory(Directory&& other) noexcept;
  Directory& operator=(Directory&& other) noexcept;
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;
  ~Directory();

 private:
  Directory(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace judge
