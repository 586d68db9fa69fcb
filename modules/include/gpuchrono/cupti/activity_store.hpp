// ActivityStore: the activity records CUPTI has delivered, held until the scopes that may want them have
// taken theirs. CUPTI hands records over on its own thread, in any order and possibly after the scope that
// launched the work has stopped, so records wait here keyed by correlation id.
//
// What is kept: a scope opens a window at its start (a CUPTI timestamp) and closes it once it has collected
// its records. A record is kept while it ends at or after the start of some open window (it may be a scope's
// own work, or work of another stream that overlapped it: catalog row 9); with no window open, arriving records
// are dropped at once, so a process that used KernelPolicy once does not accumulate the records of all its
// later kernels. Records CUPTI itself dropped (its buffers were full) are counted here too.
//
// What ran before a window: whether the device had been idle before a scope's work (gpu-idle-before) needs the
// latest end of work on the device before the scope's first activity. Records ending at or after the window's
// start stay in the store (above); for those ending before it, only the latest end per device matters, and that
// is kept without the records: the store remembers per device the latest end of everything it has been given
// (window or none), and each open window takes that over when it opens and raises it with every record that
// arrives while it is open and ends before its start (CUPTI delivers in any order, and the records of work
// that ended just before a scope began may come with the scope's own flush). The library's stream marks are
// kept apart from other work (prior_work()).
// Thread-safe: CUPTI's thread adds while scopes on other threads open, collect and close.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpuchrono::cupti {

class ActivityStore {
public:
    using Window = std::uint64_t;

    // The latest end (CUPTI ns) of the records of one device that ended before a window's start, as delivered so
    // far; 0: none.
    struct PriorWork {
        std::uint64_t work_end_ns = 0;  // kernels, copies and sets that are not stream marks
        std::uint64_t mark_end_ns = 0;  // the library's stream marks (stream_bounds.hpp), any scope's
    };

    Window open_window(std::uint64_t start_ns);
    void close_window(Window w);

    void add(std::vector<KernelActivity> records);
    void add_dropped(std::uint64_t count);
    std::uint64_t dropped() const;

    // What ran on `device` before the window's start (see above). A closed or unknown window gives none.
    PriorWork prior_work(Window w, int device) const;

    // When CUPTI's activity records began (or began again, after the range profiler had silenced them) for the
    // process: before it, no record says whether a device was busy. 0 until set.
    void set_recording_since(std::uint64_t ns);
    std::uint64_t recording_since() const;

    struct Collected {
        std::vector<KernelActivity> launched;  // the records of the given correlation ids
        std::vector<KernelActivity> others;    // every other record held that ends at or after `from_ns`
    };
    // Copies (the records stay until no window needs them: nested scopes share records).
    Collected collect(std::span<const std::uint32_t> correlations, std::uint64_t from_ns) const;

    std::size_t size() const;
    std::size_t open_windows() const;

private:
    void prune_locked();
    static void raise(std::vector<PriorWork>& by_device, const KernelActivity& r);

    mutable std::mutex mutex_;
    std::vector<KernelActivity> records_;
    // Open windows by (start, window), each with the latest ends before its start by device: a record raises only
    // the windows that began after it ended, found without visiting the others (hundreds may be open).
    std::map<std::pair<std::uint64_t, Window>, std::vector<PriorWork>> windows_;
    std::unordered_map<Window, std::uint64_t> window_start_;
    std::vector<PriorWork> latest_;  // by device: the latest ends of every record given to add()
    Window next_window_ = 1;
    std::uint64_t dropped_ = 0;
    std::uint64_t recording_since_ = 0;
};

}  // namespace gpuchrono::cupti
