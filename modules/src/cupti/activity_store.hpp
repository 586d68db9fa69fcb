// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
// start stay in the store (above); of those ending before it only the latest end per device matters, so the
// store keeps, per device, the ends of what it was given (window open or not; the library's stream marks apart
// from other work): all those at or after the earliest open window's start and the latest one before it (with
// no window open, the latest only). The latest end before a window's start is then at hand whatever order CUPTI
// delivered in, the records of work that ended just before a scope began included, which usually come with the
// scope's own flush. Each window also keeps the latest ends delivered before it opened (that work began before
// it, whatever its timestamps say).
// Thread-safe: CUPTI's thread adds while scopes on other threads open, collect and close.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <utility>
#include <vector>

namespace gpuchrono::cupti {

class ActivityStore {
public:
    using Window = std::uint64_t;

    // The latest end (CUPTI ns) of the records of one device that ended before a window's start (or were delivered
    // before it opened), as delivered so far; 0: none.
    struct PriorWork {
        std::uint64_t work_end_ns = 0;  // kernels, copies and sets that are not stream marks
        std::uint64_t mark_end_ns = 0;  // the library's stream marks (stream_bounds.hpp), any scope's
        std::uint64_t stream_work_end_ns = 0;  // work (not marks) on the one stream asked about, if one was
    };

    Window open_window(std::uint64_t start_ns);
    void close_window(Window w);

    void add(std::vector<KernelActivity> records);
    void add_dropped(std::uint64_t count);
    std::uint64_t dropped() const;

    // What ran on `device` before the window's start (see above), and, given a `stream` (CUPTI's id), the latest
    // end of work on that stream. A closed or unknown window gives none.
    PriorWork prior_work(Window w, int device, std::optional<std::uint32_t> stream = std::nullopt) const;

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

    // The library's stream marks (stream_bounds.hpp) with block[0] == token that end at or after `from_ns`.
    std::vector<KernelActivity> marks(std::uint32_t token, std::uint64_t from_ns) const;
    // What a stream-mode scope bounded by two marks can use: the records that end at or after `from_ns` and either
    // start by `until_ns` (the stop mark's end: work starting later cannot overlap the scope's) or come from a call
    // made between the marks' (correlation id strictly between the two). Copying every record held instead made
    // each of N pending scopes copy the records of all later ones: 60-80 us per scope with 500 pending on an H100.
    std::vector<KernelActivity> collect_bounded(std::uint64_t from_ns, std::uint64_t until_ns, std::uint32_t after_correlation,
                                                std::uint32_t before_correlation) const;

    std::size_t size() const;
    std::size_t open_windows() const;

private:
    struct OpenWindow {
        std::uint64_t start_ns = 0;
        std::vector<PriorWork> delivered_before;  // by device: the latest ends given before the window opened
        std::map<std::pair<int, std::uint32_t>, std::uint64_t> stream_delivered_before;  // by (device, stream)
    };
    struct DeviceEnds {
        std::set<std::uint64_t> work, marks;
    };

    void prune_locked();

    mutable std::mutex mutex_;
    std::vector<KernelActivity> records_;
    std::map<Window, OpenWindow> windows_;
    std::vector<DeviceEnds> ends_;  // by device (see above)
    // The same for work by (device, stream): the first kernel on a stream idle for a fifth of a millisecond ran
    // long on the H100 while other streams kept the device busy (idle_gap.hpp). At most max_streams_kept entries.
    std::map<std::pair<int, std::uint32_t>, std::set<std::uint64_t>> stream_ends_;
    static constexpr std::size_t max_streams_kept = 1024;
    Window next_window_ = 1;
    std::uint64_t dropped_ = 0;
    std::uint64_t recording_since_ = 0;
};

}  // namespace gpuchrono::cupti
