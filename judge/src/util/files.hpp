// Reading and writing whole files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace judge {

// The whole content of `path`; nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::string& path);

// The whole content of `path`, or "" when it cannot be read.
std::string read_file_or_empty(const std::string& path);

// Why read_regular_file() read nothing.
enum class ReadRefusal { kNone, kCannotOpen, kNotRegular, kTooLarge };

// The whole content of `path` if it is a regular file of at most
// `max_bytes`, read through one descriptor (what is checked is what is
// read; a FIFO or a device is never read from); nullopt with *refusal set
// otherwise, and *error_number for kCannotOpen.
std::optional<std::string> read_regular_file(const std::string& path, std::uint64_t max_bytes, ReadRefusal* refusal,
                                             int* error_number = nullptr);

// read_regular_file() of `name` in the directory open as `dir_fd`,
// without following a symbolic link at `name` (one is kNotRegular).
std::optional<std::string> read_regular_file_at(int dir_fd, const std::string& name, std::uint64_t max_bytes,
                                                ReadRefusal* refusal, int* error_number = nullptr);

// Writes `content` to `path` through a temporary file beside it and a
// rename, so a reader (or a rerun after an interruption) sees the whole
// file or none. The temporary file is created anew (never opened through
// a link someone placed at its name) and the rename replaces the entry
// `path` itself: a symbolic link there is replaced, not written through.
// Safe from several threads and processes at once. Throws JudgeFault
// naming the file and the system's reason ("No space left on device",
// "Read-only file system") when it cannot be written.
void write_file_atomically(const std::string& path, const std::string& content);

// write_file_atomically() of `name` in the directory open as `dir_fd`;
// messages call the file `shown`.
void write_file_atomically_at(int dir_fd, const std::string& name, const std::string& content,
                              const std::string& shown);

// True for a temporary file write_file_atomically() left behind when
// interrupted.
bool is_atomic_write_leftover(const std::string& file_name);

}  // namespace judge
