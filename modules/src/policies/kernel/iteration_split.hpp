// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which CUPTI records belong to which iteration of a loop that one thread ran (the Google Benchmark bridge's batch),
// told apart by correlation ids alone, never by timestamps. Free of CUPTI so that CPU tests drive it with made-up
// records.
//
// The thread's launch calls (launch_subscriber.hpp) give, in call order, the correlation ids of its iterations;
// CUPTI stamps the same id on the records of the work each call launched. Correlation ids grow with every CUDA call
// of the process, so the iterations cut the ids into consecutive ranges: iteration i owns (last id of the
// iterations before it, last id of its own calls]. Thread mode counts the records of the iteration's own calls, on
// any stream. Stream mode counts every record on the timed stream whose id falls in the iteration's range (work
// enqueued there meanwhile by other threads included, as a stream-mode scope counts it) and the kernels of graphs
// that the iteration launched; the iteration's own work on other streams is reported, not counted.
//
// Why not the stream's order in time (as a stream-mode scope bounds its work by two marks): with a 2 us kernel the
// stop mark is enqueued just as the kernel ends, so the two records' stamps, and the host's CUPTI time taken before
// the mark's launch, come within a microsecond of each other; on an H100 the bridge, so bounded, refused a 2 us
// spin as launching nothing after about 10^5 iterations. The order of the calls does not depend on those margins.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_set>
#include <vector>

namespace gpuchrono::iteration_split {

// The timed stream of stream mode, as CUPTI names it.
struct TimedStream {
    int device = -1;
    std::uint32_t stream = 0;
};

struct Split {
    std::vector<std::uint64_t> busy_ns;     // per iteration: the busy time (union) of its counted records; 0 if none
    std::vector<std::size_t> counted;       // per iteration: how many records it counted
    std::vector<std::vector<KernelActivity>> elsewhere;  // per iteration: its own work that ran elsewhere, not counted
    std::vector<std::size_t> unrecorded;    // per iteration: its launch calls whose record never came (note_unrecorded)
};

// `calls`: the thread's launch calls' correlation ids in call order; iteration i made calls[ends[i-1]..ends[i])
// (ends[-1] is 0), so `ends` is non-decreasing and its last value at most calls.size(). `stream`: stream mode's
// stream; nullopt for thread mode. The library's stream marks are never counted. O(records + calls).
Split split_iterations(std::span<const KernelActivity> records, std::span<const std::uint32_t> calls,
                       std::span<const std::size_t> ends, std::optional<TimedStream> stream);

// Fills split.unrecorded: per iteration, how many of its calls that must have a record of their own (`expected`, a
// subset of `calls`) have none among `recorded`, the correlation ids of the records that came. Such an iteration may
// read short (its record was dropped or late), while one that counted nothing and misses nothing launched nothing.
void note_unrecorded(Split& split, std::span<const std::uint32_t> calls, std::span<const std::size_t> ends,
                     std::span<const std::uint32_t> expected, const std::unordered_set<std::uint32_t>& recorded);

// The iterations the caller times, in order: those whose `untimed` flag is 0. An untimed iteration holds work that
// must run before a timed one but not count in it (measure()'s L2 flush before each cold-cache call): closing it
// as an iteration of its own keeps its records out of the next one's range, and dropping it here keeps it out of
// the times and the findings.
Split timed_only(Split all, std::span<const std::uint8_t> untimed);

}  // namespace gpuchrono::iteration_split
