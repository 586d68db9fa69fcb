// ActivityStore: the activity records CUPTI has delivered, held until the scopes that may want them have
// taken theirs. CUPTI hands records over on its own thread, in any order and possibly after the scope that
// launched the work has stopped, so records wait here keyed by correlation id.
//
// What is kept: a scope opens a window at its start (a CUPTI timestamp) and closes it once it has collected
// its records. A record is kept while it ends at or after the start of some open window (it may be a scope's
// own work, or work of another stream that overlapped it: catalog row 9); with no window open, arriving records
// are dropped at once, so a process that used KernelPolicy once does not accumulate the records of all its
// later kernels. Records CUPTI itself dropped (its buffers were full) are counted here too.
// Thread-safe: CUPTI's thread adds while scopes on other threads open, collect and close.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace gpuchrono::cupti {

class ActivityStore {
public:
    using Window = std::uint64_t;

    Window open_window(std::uint64_t start_ns);
    void close_window(Window w);

    void add(std::vector<KernelActivity> records);
    void add_dropped(std::uint64_t count);
    std::uint64_t dropped() const;

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

    mutable std::mutex mutex_;
    std::vector<KernelActivity> records_;
    std::map<Window, std::uint64_t> windows_;  // window -> start_ns
    Window next_window_ = 1;
    std::uint64_t dropped_ = 0;
};

}  // namespace gpuchrono::cupti
