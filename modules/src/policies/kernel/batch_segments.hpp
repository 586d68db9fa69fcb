// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Stream-mode attribution for a batch of samples on one stream: the kernel method of measure() and compare()
// places one mark per sample boundary (stream_marker.hpp, the batch shape) instead of a KernelPolicy scope's two
// marks, window and event per sample. Free of CUPTI so that CPU tests can drive it with made-up records.
//
// A stream runs its work in enqueue order, so the batch's marks, sorted by start, come in the order they were
// placed, and the work on the stream between two consecutive marks (starting after the first ended, ending before
// the second started) is what was enqueued between them; so is work on the stream whose launch call came between
// the two marks' calls, whatever its stamps say (a short kernel ends as the next mark is enqueued). A sample is the segment that opens at one mark and closes
// at the next: with a warm cache each mark closes one sample and opens the next; with the L2 flush before each
// sample, a sample has its own opening mark, so the flush runs in a segment that is no sample's. As for a scope
// (stream_bounds.hpp), the kernels of a CUDA graph launched on the stream count with the segment its record on
// the stream fell in; those of a graph whose nodes all ran on streams of its own count with the segment between
// whose marks' calls its launch call came (correlation ids grow with every CUDA call of the process), when every
// node ran between those marks. Other work (other streams, other devices) is never counted.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpuchrono::stream_mode {

// A batch's marks have block (token, 1, batch_mark_z); a scope's start and stop marks have z = 1.
inline constexpr std::uint32_t batch_mark_z = 2;

// Whether a record is one of the marks of the batch with this token.
bool is_batch_mark(const KernelActivity& r, std::uint32_t token) noexcept;

struct BatchSamples {
    std::vector<std::uint64_t> busy_ns;  // per sample: the busy time (union) of its records; 0 without any
    std::vector<std::size_t> records;    // per sample: how many records it counted
    std::string problem;                 // empty when every mark placed was found; else what was missing
};

// Splits `records` (every record held from the batch's start, marks among them, in any order) into the samples
// of a batch whose marks have `token`, on (device, stream) (`stream_from_mark`: the stream of its first mark), that
// started at or after `not_before_ns`. `marks_placed` marks were placed; sample i opens at mark `opens[i]` (in
// placing order, counted from 0) and closes at the next. O(records log records) for the whole batch.
BatchSamples split_batch(std::span<const KernelActivity> records, std::uint32_t token, int device, std::uint32_t stream,
                         std::uint64_t not_before_ns, std::size_t marks_placed, std::span<const std::uint32_t> opens);

// The batch's marks among `records`, sorted by start (the placing order), as split_batch finds them.
std::vector<KernelActivity> batch_marks(std::span<const KernelActivity> records, std::uint32_t token, int device,
                                        std::uint32_t stream, std::uint64_t not_before_ns);

}  // namespace gpuchrono::stream_mode
