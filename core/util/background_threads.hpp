#pragma once
// Long work in the background: a process with a user interface (the workbench) asks once that every
// worker thread doing long work (searches, session files, maps) runs at a lower scheduling priority
// than the thread that paints, so that on a busy machine the interface keeps its share of a core
// instead of waiting behind its own workers (issue 16 item 5). Results never depend on it; the CLI
// leaves it off and runs at full priority.
namespace sparsemap::util {

// The process-wide policy (off by default).
void setWorkersInBackground(bool on);
bool workersInBackground();

// When the policy is on, lowers the calling thread's priority (Linux: to nice value 5, per thread,
// unless it is lower already); otherwise, and where the platform has no per-thread priority, does
// nothing.
// Cheap enough to call at the start of every background job.
void enterBackground();

} // namespace sparsemap::util
