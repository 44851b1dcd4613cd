#pragma once
// A 10 ms QTimer on the GUI thread that measures, between consecutive ticks, the wall-clock gap (what a
// user sees; on a loaded machine it includes the time the thread waits for a core) and the CPU time
// the GUI thread itself spent (the work it did without getting back to the timer: no event handler
// can run longer than this, whatever the load). Used by the tests that hold long work off the GUI
// thread (issue 16 item 5).
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <time.h>

namespace sparsemap::test {

// CPU time of the calling thread, in milliseconds.
inline double threadCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

struct Heartbeat {
    QTimer timer;
    QElapsedTimer clock;
    qint64 last = 0, longest = 0;
    double lastCpu = threadCpuMs(), longestCpu = 0;
    int ticks = 0;
    Heartbeat()
    {
        timer.setInterval(10);
        QObject::connect(&timer, &QTimer::timeout, [this] { tick(); });
        clock.start();
        timer.start();
    }
    // Counts the time since the last tick too (call when the measured work is over).
    void finish()
    {
        tick();
        --ticks;
    }

private:
    void tick()
    {
        const qint64 now = clock.elapsed();
        const double cpu = threadCpuMs();
        longest = std::max(longest, now - last);
        longestCpu = std::max(longestCpu, cpu - lastCpu);
        last = now;
        lastCpu = cpu;
        ++ticks;
    }
};

} // namespace sparsemap::test
