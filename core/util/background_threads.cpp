#include "util/background_threads.hpp"

#include <atomic>
#include <cerrno>

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace sparsemap::util {

namespace {
std::atomic<bool> g_background{false};
constexpr int kBackgroundNice = 5; // a nice-0 thread gets ~3/4 of a core shared with one such worker
} // namespace

void setWorkersInBackground(bool on)
{
    g_background.store(on, std::memory_order_relaxed);
}

bool workersInBackground()
{
    return g_background.load(std::memory_order_relaxed);
}

void enterBackground()
{
    if (!workersInBackground())
        return;
#if defined(__linux__)
    // On Linux a nice value belongs to a thread (PRIO_PROCESS with a thread id). A thread made by this
    // one inherits it; raising it again is never needed (the threads only ever do background work).
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, tid);
    if (errno == 0 && current < kBackgroundNice)
        (void)setpriority(PRIO_PROCESS, tid, kBackgroundNice);
#endif
}

} // namespace sparsemap::util
