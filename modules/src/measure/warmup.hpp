// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Warm-up by state, not by a count of calls (docs/pitfalls-catalog.md #4 and #5), and no longer than that state
// needs: every warm-up call is time measure() adds beyond its samples (2.6 ms each on a torch.mm of 4096).
//
// The rule (warmup_step): the first call alone loads the callable's module under lazy loading (#4); it is timed
// with its synchronisation and nothing else is read from it. Then slices of calls, each timed by one event pair,
// and after each slice one NVML read (tens of microseconds): the warm-up ends after the first slice whose read,
// taken just after GPU work, shows the SM clock at least 75% of its maximum (nvbench's threshold, the one below
// which samples are flagged gpu-clock-low: #5), once that slice lasted long enough to size the batches and graphs
// that follow (sizing_slice) and warmup_min_time has passed. The first slice is one call, so a call of 50 us or more
// warms up in two calls in all when the clock is up; a shorter call needs one more slice of about 200 us. While
// the clock reads low the slices last about 2 ms each: a GPU raises its clock under load. Without NVML the clock
// cannot be read, and two successive slices agreeing on the per-call time within 5% stand in for it.
#pragma once

#include <gpuchrono/checks/check_gpu_state.hpp>
#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/measure/measure.hpp>
#include <gpuchrono/measure/measure_record.hpp>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuchrono {

// The clock of `now` is at least 75% of its maximum (check_gpu_state's min_clock_fraction). Clock-event reasons
// are not asked: NVML reads right after a synchronisation, when the GPU is idle for a moment and may say so, and
// a capped clock above that fraction will not get better by waiting (its samples are flagged instead).
bool clock_up(const GpuState& now) noexcept;

// Two slices' per-call times within 5% of each other.
bool per_call_steady(Duration before, Duration now) noexcept;

// A slice that lasted this long on the GPU gives a per-call time that launch latency (about 5 us) no longer
// dominates. The sizing slice is aimed at four times that: a one-call slice of a short call reads mostly latency,
// and overestimates the call by up to that much.
inline constexpr Duration sizing_slice = Duration::from_us(50);
// The slices while the clock reads low (or unread), and once it is up, the one that sizes the per-call time.
inline constexpr Duration load_slice = Duration::from_ms(2);
inline constexpr Duration short_sizing_slice = Duration::from_us(200);

// What the warm-up saw after one timed slice.
struct WarmupSlice {
    Duration elapsed{};            // host time since the warm-up began, the first call included
    std::size_t calls = 0;         // calls in this slice
    Duration gpu_time{};           // the slice's event-pair time
    Duration previous_per_call{};  // the slice before's per-call time; 0 for the first slice
    GpuState state;                // read just after this slice's synchronisation
};

enum class WarmupEnd { more, ready, capped };

struct WarmupStep {
    WarmupEnd end = WarmupEnd::more;
    std::size_t next_calls = 0;  // with `more`: how many calls the next slice makes
};

// The rule above, as a pure function of what the latest slice saw.
WarmupStep warmup_step(const WarmupSlice& slice, Duration min_time, Duration max_time) noexcept;

// Runs the warm-up on `stream` (on `device`) and says what it did. Throws CudaError.
WarmupRecord warm_up(cudaStream_t stream, int device, const detail::LaunchFn& launch, const MeasureOptions& options);

}  // namespace gpuchrono
