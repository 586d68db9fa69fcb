// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Stream-mode attribution by bounds: which activity records belong to a KernelPolicy scope, found from the two
// marks the scope placed on its own stream (stream_marker.hpp), with no launch callback. Free of CUPTI so that
// CPU tests can drive it with made-up records.
//
// A stream runs its work in the order it was enqueued, so the records on the scope's stream that start after
// the start mark ended and end before the stop mark started are exactly the work enqueued on that stream
// between start() and stop(), by any thread; so is a record on that stream whose launch call came between the two
// marks' calls, whatever its stamps say (a 2 us kernel ends as the stop mark is enqueued, and the two stamps can
// meet out of order). The kernels of a CUDA graph run on streams of the graph's own and
// carry the correlation id of their cudaGraphLaunch: they count when a record of the same launch ran on the
// scope's stream, or, for a graph whose nodes all ran elsewhere, when the launch call came between the two
// marks' calls (correlation ids grow with every CUDA call of the process) and all its nodes ran between the
// marks. Work launched between the marks' calls on other streams is reported, not counted.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gpuchrono::stream_mode {

// Whether a record is one of the library's stream marks (never the user's work).
bool is_stream_mark(const KernelActivity& r) noexcept;

// A stream whose CUPTI id is not known before its first record: the legacy default stream (CUPTI's
// cuptiGetStreamIdEx answers CUPTI_ERROR_INVALID_STREAM for it, seen on the H100 with CUDA 13.0). Its scope learns
// the id from its own start mark's record.
inline constexpr std::uint32_t stream_from_mark = 0xffffffffu;

// The earliest mark on (device, stream) with the given token and side (stop: false/true) that started at or
// after `not_before_ns` (the CUPTI time taken just before the mark was launched); `stream_from_mark` matches a
// mark on any stream.
std::optional<KernelActivity> find_mark(std::span<const KernelActivity> records, int device, std::uint32_t stream,
                                        std::uint32_t token, bool stop, std::uint64_t not_before_ns);

struct BoundedWork {
    std::vector<KernelActivity> counted;    // the scope's work, sorted by start
    std::vector<KernelActivity> elsewhere;  // launched between the marks' calls, on other streams: not counted
    std::vector<KernelActivity> others;     // everything else (for the overlap finding); marks left out
};

// Splits `records` (every record held that ends at or after the scope's start) by the two marks.
BoundedWork split_by_marks(std::span<const KernelActivity> records, const KernelActivity& start_mark,
                           const KernelActivity& stop_mark);

}  // namespace gpuchrono::stream_mode
