// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono's hold of CUPTI inside a program that `gpuchrono run` records: the injection holds CUPTI's subscriber
// slot and activity buffers from CUDA's start, so the hold shares them (run_share_abi.hpp) rather than fall back as
// when another tool holds CUPTI. While attached, every buffer the injection is handed reaches the session's store
// (activity_buffers.hpp) and the launch callbacks the library enables reach its subscriber callback
// (launch_subscriber.hpp). Internal.
#pragma once

#include "cupti_library.hpp"

#include "cupti/activity_store.hpp"

#include <cstddef>
#include <string>

namespace gpuchrono::cupti {

enum class RunShare {
    no_run,    // no recording injection in this process: gpuchrono subscribes itself
    attached,  // sharing the injection's subscription
    refused,   // an injection records, but this library cannot attach (`why` says why)
};

// Looks for `gpuchrono run`'s injection and attaches the session's store to it. Called by the hold when its first
// holder comes, before any cuptiSubscribe of its own: with a CUPTI that allows several subscribers, a subscription
// of the library's own would take CUPTI's one pair of buffer callbacks from the injection, and its report would
// lose the program's work. When CUDA has not started yet but the injection is named to load at its start, CUDA is
// started here first (cudaGetDeviceCount), so the injection has CUPTI before gpuchrono asks.
RunShare attach_to_run(const CuptiLibrary& lib, ActivityStore& store, std::string& why) noexcept;

// Ends the attachment: returns once the injection makes no call into the library any more.
void detach_from_run() noexcept;

// Whether gpuchrono's hold shares the injection's subscription now.
bool sharing_run() noexcept;

// cuptiActivityFlushAll(flags); while attached, through the injection, which makes its own flushes take turns with
// it: a flush beside the injection's flush thread could return before that thread's buffers were delivered.
CUptiResult flush_all_activity(const CuptiLibrary& lib, std::uint32_t flags) noexcept;

// CUPTI's count of records dropped outside any buffer, read through the injection (which reports it too).
std::size_t run_collect_dropped() noexcept;

}  // namespace gpuchrono::cupti
