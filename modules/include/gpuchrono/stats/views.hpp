// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Views and reductions over the per-block samples (BlockSample) that DeviceClockPolicy reads back from a
// kernel: what each block did, where it ran, when it started, and how the launch filled the GPU.
//
// Host only (range-v3; see stats.hpp). The split follows range-v3's own:
//   gpuchrono::views::  lazy, composable views, one element out per sample in (or fewer, for the filters):
//                       block_durations, iteration_durations, launch_skew, for_region, on_sm, sm_changed.
//   gpuchrono::         reductions that must see every sample before they can answer: makespan, concurrency,
//                       group_by_sm; they work as calls and at the end of a pipe, like summarize. And waves(),
//                       which is arithmetic on the launch shape and needs no samples.
//
//     Stats per_block = samples | views::for_region(0) | views::block_durations | summarize;
//     Duration kernel = samples | views::for_region(0) | makespan;
//     auto busy = samples | concurrency(1us);
//     for (const auto& [sm, on_that_sm] : samples | group_by_sm) ...
//
// The views take their input by reference when it is an lvalue container (range-v3's views::all), so the
// samples must outlive the view; a temporary container is refused at compile time, as in range-v3.
//
// One view per file (range-v3's layout): stats/views/<name>.hpp; the reductions in stats/block_reductions.hpp;
// what they share (the sample ranges they accept, block_duration, iteration_duration) in
// stats/block_sample_range.hpp. This header includes them all.
#pragma once

#include <gpuchrono/stats/block_reductions.hpp>
#include <gpuchrono/stats/block_sample_range.hpp>
#include <gpuchrono/stats/views/block_durations.hpp>
#include <gpuchrono/stats/views/for_region.hpp>
#include <gpuchrono/stats/views/iteration_durations.hpp>
#include <gpuchrono/stats/views/launch_skew.hpp>
#include <gpuchrono/stats/views/on_sm.hpp>
#include <gpuchrono/stats/views/sm_changed.hpp>
