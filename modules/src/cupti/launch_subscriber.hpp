// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which launches belong to which thread-mode scope: a CUPTI subscriber on the runtime and driver APIs that launch work
// (every cbid whose name holds Launch, Memcpy or Memset: kernel launches, graph launches, copies and sets,
// so that libraries launching through the driver API count too). Its callback runs on the launching thread;
// at each such call's entry it appends the call's correlation id to every LaunchLog open on that thread.
// CUPTI stamps the same id on the activity records of the work the call launched (for cudaGraphLaunch, on
// every kernel of the graph). Internal.
#pragma once

#include "cupti_library.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// The correlation ids of the calls one scope's thread made while the log was open. Only that thread writes it.
// `expected`: the ids whose work CUPTI must report in a record of its own: every runtime launch/copy/set call,
// and driver calls made directly (not inside a runtime call, whose record carries the runtime call's id);
// cudaLaunchHostFunc and cuLaunchHostFunc run no GPU work and are left out.
struct LaunchLog {
    std::vector<std::uint32_t> correlations;
    std::vector<std::uint32_t> expected;
};

// Subscribes, enabling no callback yet: the subscription holds CUPTI's one subscriber slot (if a tool holds it -
// Nsight Systems or Compute, torch.profiler, another profiler - the error says so) and costs a launch nothing.
// Called by the hold (cupti_session.hpp) when its first holder comes; a second call while subscribed does nothing.
std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib);

// Inside a program that `gpuchrono run` records, the injection holds the subscriber slot (run_share.hpp): the
// launch callbacks come from it instead, each enabled through `enable` and delivered to launch_api_callback.
// Called by the hold in place of subscribe_to_launches.
using SharedEnable = CUptiResult (*)(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
void share_launches(const CuptiLibrary& lib, SharedEnable enable);

// The subscriber's callback: what the injection forwards while the subscription is shared.
void CUPTIAPI launch_api_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);

// Gives the subscriber slot back (cuptiUnsubscribe), with every callback it had enabled: called by the hold when
// its last holder ends, so that another tool can subscribe. The next subscribe_to_launches starts afresh. A shared
// subscription is only forgotten here (the hold detaches from the injection first).
void unsubscribe_from_launches() noexcept;

// Enables the launch callbacks of the current subscription, once (later calls return the first call's result
// until the subscriber is given back): only thread-mode scopes and metrics need them. Once on they stay on while
// gpuchrono holds CUPTI, and every launch call of the process pays for them meanwhile (0.3-0.4x of an empty launch
// on the H100, bench_kernel_policy [1]); stream-mode scopes never turn them on.
std::optional<std::string> enable_launch_callbacks();

// Runs `flush` while no thread is inside a launch call. CUPTI 13 writes each thread's activity records into a
// buffer of that thread's own (CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, on by default); on the H100 a
// cuptiActivityFlushAll that ran while another thread's launch call was writing its record crashed inside
// libcupti (SIGSEGV in cuLaunchKernel's CUPTI hook, about once in 500,000 flushes under 16 threads). The
// subscriber's callbacks count the launch calls in progress, and new ones wait at entry while a flush runs.
// Without the callbacks (no thread-mode scope yet) the gate sees no launch: CUPTI's per-thread buffers are
// therefore turned off at set-up (cupti_session.cpp), and records go to CUPTI's shared buffer, which it locks.
void flush_between_launches(const std::function<void()>& flush);

// Hardware metrics (metrics/detail/range_session.cpp) name the profiler's auto ranges, which CUPTI numbers only,
// by the kernels launched: while a listener is set, each kernel launch call (runtime, or driver called directly)
// passes the kernel's symbol to it, and a graph launch passes "(graph launch)", on the launching thread, in call
// order. Needs the subscriber and its launch callbacks (subscribe_to_launches, enable_launch_callbacks).
using KernelNameListener = void (*)(const char* symbol) noexcept;
void set_kernel_name_listener(KernelNameListener listener) noexcept;

// Open and close a log on the calling thread; logs nest (a scope inside a scope sees its launches in both).
void open_launch_log(LaunchLog* log);
void close_launch_log(LaunchLog* log) noexcept;

}  // namespace gpuchrono::cupti
