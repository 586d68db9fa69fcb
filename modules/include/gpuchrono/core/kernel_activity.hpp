// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// KernelActivity: one piece of GPU work as the GPU itself timed it (a CUPTI activity record, copied into a
// plain struct so that no CUPTI header reaches users). KernelPolicy fills Measurement::activities() with them.
// Times are CUPTI timestamps in ns (one clock for every device of the process); `stream` is CUPTI's stream id,
// the one KernelPolicy::stream_id() reports for the timed stream.
#pragma once

#include <cstdint>
#include <string>

namespace gpuchrono {

enum class ActivityKind { kernel, memcpy, memset };

const char* to_string(ActivityKind k) noexcept;

struct KernelActivity {
    ActivityKind kind = ActivityKind::kernel;
    std::string name;            // kernels: demangled name; copies: "memcpy HtoD" and so on; "memset"
    int device = -1;
    std::uint32_t stream = 0;    // CUPTI stream id
    std::uint32_t grid[3] = {0, 0, 0};   // kernels only
    std::uint32_t block[3] = {0, 0, 0};  // kernels only
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint32_t correlation_id = 0;  // the launching runtime/driver call (cudaGraphLaunch for a graph's kernels)
    std::uint32_t graph_id = 0;        // 0 unless the work ran as a node of a CUDA graph
    std::uint64_t graph_node_id = 0;
    std::uint64_t bytes = 0;           // memcpy and memset only

    std::uint64_t duration_ns() const noexcept { return end_ns > start_ns ? end_ns - start_ns : 0; }

    friend bool operator==(const KernelActivity&, const KernelActivity&) = default;
};

}  // namespace gpuchrono
