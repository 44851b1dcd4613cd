// Background workers (util/background_threads.hpp, background_arena.hpp): with the policy on, the calling
// thread and every thread that runs tasks in an observed arena get nice value 5; with it off (the CLI)
// nothing changes. The expected values are the policy's own definition (nice 5) and Linux's default
// for a new thread (its creator's value, 0 here). Its own process: the nice values it sets stay.
#include "util/background_arena.hpp"

#include <QtTest>

#include <tbb/parallel_for.h>

#include <cerrno>
#include <mutex>
#include <set>
#include <thread>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace sparsemap;

namespace {

int threadNice()
{
    errno = 0;
    const int n = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
    return errno == 0 ? n : -100;
}

// The nice values of the threads that ran the tasks of a parallel loop in `arena` (checked to be more
// than one thread: the arena's worker took part).
std::set<int> niceOfArenaThreads(tbb::task_arena& arena)
{
    std::mutex m;
    std::set<int> seen;
    std::set<std::thread::id> threads;
    arena.execute([&] {
        tbb::parallel_for(0, 4000, [&](int) {
            volatile double x = 0;
            for (int k = 0; k < 20000; ++k)
                x = x + k; // long enough that the worker joins
            const std::lock_guard lock(m);
            seen.insert(threadNice());
            threads.insert(std::this_thread::get_id());
        });
    });
    if (threads.size() < 2)
        return {};
    return seen;
}

} // namespace

class TestUtilBackgroundThreads : public QObject {
    Q_OBJECT
private slots:
    void offChangesNothing()
    {
        QVERIFY(!util::workersInBackground()); // off by default
        const int before = threadNice();
        QCOMPARE(before, 0);
        std::thread([] {
            util::enterBackground();
            QCOMPARE(threadNice(), 0);
        }).join();
        tbb::task_arena arena(2);
        const util::BackgroundArena background(arena);
        QCOMPARE(niceOfArenaThreads(arena), std::set<int>{0});
    }

    void onLowersWorkersOnly()
    {
        util::setWorkersInBackground(true);
        std::thread([] {
            util::enterBackground();
            QCOMPARE(threadNice(), 5);
            util::enterBackground(); // idempotent
            QCOMPARE(threadNice(), 5);
        }).join();
        QCOMPARE(threadNice(), 0); // the calling (GUI) thread is untouched
        // A fresh arena's workers (another thread calls it, as a search runs on a worker).
        std::thread([] {
            tbb::task_arena arena(2);
            const util::BackgroundArena background(arena);
            QCOMPARE(niceOfArenaThreads(arena), std::set<int>{5});
        }).join();
        QCOMPARE(threadNice(), 0);
        util::setWorkersInBackground(false);
    }
};

QTEST_APPLESS_MAIN(TestUtilBackgroundThreads)
#include "test_util_background_threads.moc"
