#include "core/MappedFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hearth {

Result<std::shared_ptr<MappedFile>> MappedFile::open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return makeError(ErrorCode::IoError, "cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return makeError(ErrorCode::IoError, "cannot stat '" + path + "': " + std::strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return makeError(ErrorCode::IoError, "'" + path + "' is not a regular file");
    }
    std::shared_ptr<MappedFile> f(new MappedFile());
    f->path_ = path;
    f->size_ = static_cast<uint64_t>(st.st_size);
    if (f->size_ > 0) {
        void* p = ::mmap(nullptr, f->size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int e = errno;
            ::close(fd);
            return makeError(ErrorCode::IoError, "cannot mmap '" + path + "': " + std::strerror(e));
        }
        f->data_ = static_cast<const uint8_t*>(p);
    }
    ::close(fd);  // the mapping keeps the file alive
    return f;
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

void MappedFile::prefetch(uint64_t offset, uint64_t length) const {
    if (!data_ || offset >= size_) return;
    const long page = ::sysconf(_SC_PAGESIZE);
    const uint64_t start = offset / page * page;
    const uint64_t end = std::min<uint64_t>(size_, offset + length);
    ::madvise(const_cast<uint8_t*>(data_) + start, end - start, MADV_WILLNEED);
}

}  // namespace hearth
