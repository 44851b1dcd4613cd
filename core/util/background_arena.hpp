#pragma once
// The worker threads of a TBB task arena in the background (background_threads.hpp). A header of its
// own: TBB's headers cannot be included where Qt's `emit` macro is defined (the GUI includes
// background_threads.hpp only).
#include "util/background_threads.hpp"

#include <tbb/task_arena.h>
#include <tbb/task_scheduler_observer.h>

namespace sparsemap::util {

// Applies enterBackground() to every thread that joins `arena` (the worker threads of a search's or a
// file job's task arena), for as long as it lives.
class BackgroundArena : public tbb::task_scheduler_observer {
public:
    explicit BackgroundArena(tbb::task_arena& arena) : tbb::task_scheduler_observer(arena)
    {
        if (workersInBackground())
            observe(true);
    }
    ~BackgroundArena() override { observe(false); }
    BackgroundArena(const BackgroundArena&) = delete;
    BackgroundArena& operator=(const BackgroundArena&) = delete;
    void on_scheduler_entry(bool) override { enterBackground(); }
};

} // namespace sparsemap::util
