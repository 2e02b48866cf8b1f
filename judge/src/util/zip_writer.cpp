// ZipWriter over libzip.
#include "util/zip_writer.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <zip.h>

#include "util/errors.hpp"

namespace judge {
namespace {
std::string archive_error(const std::string& path, zip_t* archive) {
  return fmt::format("cannot write {}: {}", path, zip_error_strerror(zip_get_error(archive)));
}
}  // namespace

ZipWriter::ZipWriter(const std::string& path) : path_(path) {
  int error = 0;
  archive_ = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (!archive_) {
    zip_error_t detail;
    zip_error_init_with_code(&detail, error);
    std::string message = fmt::format("cannot write {}: {}", path, zip_error_strerror(&detail));
    zip_error_fini(&detail);
    throw JudgeFault{message};
  }
}

ZipWriter::~ZipWriter() {
  if (archive_) zip_discard(archive_);
}

void ZipWriter::add(const std::string& name, std::string content, bool executable) {
  const std::string& kept = contents_.emplace_back(std::move(content));
  zip_source_t* source = zip_source_buffer(archive_, kept.data(), kept.size(), 0);
  if (!source) throw JudgeFault{archive_error(path_, archive_)};
  zip_int64_t index = zip_file_add(archive_, name.c_str(), source, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8);
  if (index < 0) {
    zip_source_free(source);
    throw JudgeFault{archive_error(path_, archive_)};
  }
  zip_uint32_t mode = S_IFREG | (executable ? 0755 : 0644);
  if (zip_file_set_external_attributes(archive_, index, 0, ZIP_OPSYS_UNIX, mode << 16) < 0)
    throw JudgeFault{archive_error(path_, archive_)};
}

void ZipWriter::close() {
  if (zip_close(archive_) < 0) throw JudgeFault{archive_error(path_, archive_)};
  archive_ = nullptr;
}

}  // namespace judge
