#include "util/file_io.hpp"

#include "util/error.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sparsemap {

void requireRegularFile(const std::string& path)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        throw InputError("cannot read " + path +
                         ": it is not a regular file (devices and pipes are not read)");
}

std::string readTextFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError("cannot read " + path + ": it is a folder, not a file");
    requireRegularFile(path);
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError("cannot read " + path + ": " + std::strerror(errno));
    const auto tooLarge = [&] {
        return InputError("cannot read " + path + ": it is larger than " +
                          std::to_string(kMaxTextFileBytes >> 20) + " MiB, the largest input file read");
    };
    // Read into room for the whole file at once (a large session: no growing copies); the loop
    // still ends at the real end, should the file change size meanwhile.
    const auto expected = std::filesystem::file_size(path, ec);
    if (!ec && expected > kMaxTextFileBytes)
        throw tooLarge();
    std::string text;
    std::size_t size = 0;
    text.resize(ec ? std::size_t(1) << 16 : static_cast<std::size_t>(expected) + 1);
    while (in.read(text.data() + size, static_cast<std::streamsize>(text.size() - size)) || in.gcount() > 0) {
        size += static_cast<std::size_t>(in.gcount());
        if (size > kMaxTextFileBytes)
            throw tooLarge();
        if (size == text.size())
            text.resize(2 * text.size());
    }
    if (in.bad())
        throw InputError("cannot read " + path + ": read error");
    text.resize(size);
    return text;
}

namespace {

[[noreturn]] void writeFailed(const std::string& path, const std::string& what, int error)
{
    throw InputError("cannot write " + path + ": " + what + ": " + std::strerror(error) +
                     " (the existing file, if any, is unchanged)");
}

// Writes all of `contents` to `fd`, retrying partial writes and interrupts.
bool writeAll(int fd, std::string_view contents)
{
    const char* data = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

// A name beside the target that no other writer (thread or process) uses at the same time.
std::string temporaryName(const std::string& target, int attempt)
{
    static std::atomic<unsigned> counter{0};
    return target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
           std::to_string(attempt);
}

} // namespace

void writeTextFileAtomically(const std::string& path, const std::string& contents)
{
    const std::string_view piece(contents);
    writeFileAtomically(path, std::span(&piece, 1));
}

namespace {

// Writes into an existing character device or pipe (a terminal, /dev/null, /proc/self/fd/1 when it
// is a pipe) as a shell's `>` would: there is nothing to replace atomically. A pipe nobody reads is an
// error rather than a wait; every failed write (/dev/full: no space left) is reported.
void writeThrough(const std::string& path, std::span<const std::string_view> pieces, bool pipe)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (pipe ? O_NONBLOCK : 0));
    if (fd < 0) {
        const int error = errno;
        throw InputError("cannot write " + path + ": " +
                         (pipe && error == ENXIO ? std::string("no process reads the pipe")
                                                 : std::string(std::strerror(error))));
    }
    if (pipe) // opened without waiting for a reader; the writes themselves wait as usual
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    for (const std::string_view piece : pieces)
        if (!writeAll(fd, piece)) {
            const int error = errno;
            ::close(fd);
            throw InputError("cannot write " + path + ": write error: " + std::strerror(error) +
                             (pipe ? " (a pipe)" : " (a device)"));
        }
    if (::close(fd) != 0 && errno != EINTR)
        throw InputError("cannot write " + path + ": write error on close: " + std::strerror(errno));
}

std::string fileKind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

} // namespace

void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces)
{
    // What the path names, following symbolic links: only a regular file (or nothing) is replaced,
    // atomically; through a link, the file it finally points to is replaced, never the link.
    // Character devices and pipes are written through; folders, sockets and block devices are errors.
    std::string target = path;
    struct stat existing {};
    bool exists = ::stat(path.c_str(), &existing) == 0;
    if (!exists && errno != ENOENT)
        writeFailed(path, "cannot look at it", errno);
    if (exists && (S_ISCHR(existing.st_mode) || S_ISFIFO(existing.st_mode))) {
        writeThrough(path, pieces, S_ISFIFO(existing.st_mode));
        return;
    }
    if (exists && !S_ISREG(existing.st_mode))
        throw InputError("cannot write " + path + ": it is " + fileKind(existing.st_mode) +
                         "; only a regular file is replaced (nothing was written)");
    // Through symbolic links (also one to a file not there yet): the last link's target.
    for (int hops = 0;; ++hops) {
        struct stat link {};
        if (::lstat(target.c_str(), &link) != 0 || !S_ISLNK(link.st_mode))
            break;
        if (hops == 40)
            writeFailed(path, "cannot follow the symbolic link", ELOOP);
        std::error_code ec;
        const auto next = std::filesystem::read_symlink(target, ec);
        if (ec)
            writeFailed(path, "cannot follow the symbolic link", ec.value());
        target = (next.is_absolute() ? next : std::filesystem::path(target).parent_path() / next).string();
    }

    // The temporary file must be in the target's folder: rename() is atomic only within a file system.
    int fd = -1;
    std::string temporary;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temporary = temporaryName(target, attempt);
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            writeFailed(path, "cannot create a temporary file beside it", errno);
    }
    if (fd < 0)
        writeFailed(path, "cannot create a temporary file beside it", EEXIST);

    auto fail = [&](const std::string& what) {
        const int error = errno;
        if (fd >= 0)
            ::close(fd);
        ::unlink(temporary.c_str());
        writeFailed(path, what, error);
    };

    // Keep the permissions of the file being replaced (open() gave 0666 minus the umask).
    if (exists)
        ::fchmod(fd, existing.st_mode & 07777);

    for (const std::string_view piece : pieces)
        if (!writeAll(fd, piece))
            fail("write error");
    if (::fsync(fd) != 0)
        fail("cannot flush to disk");
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0)
        fail("write error on close");
    // The target may have changed since it was looked at (another program made it a device or a
    // folder): rename() replaces only a file, and a folder makes it fail; a device is checked again.
    struct stat now {};
    if (::lstat(target.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
        ::unlink(temporary.c_str());
        throw InputError("cannot write " + path + ": it is " + fileKind(now.st_mode) +
                         "; only a regular file is replaced (nothing was written)");
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0)
        fail("cannot replace the file");
}

} // namespace sparsemap
