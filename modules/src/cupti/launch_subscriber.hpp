// Which launches belong to which thread-mode scope: a CUPTI subscriber on the runtime and driver APIs that launch work
// (every cbid whose name holds Launch, Memcpy or Memset: kernel launches, graph launches, copies and sets,
// so that libraries launching through the driver API count too). Its callback runs on the launching thread;
// at each such call's entry it appends the call's correlation id to every LaunchLog open on that thread.
// CUPTI stamps the same id on the activity records of the work the call launched (for cudaGraphLaunch, on
// every kernel of the graph). Internal.
#pragma once

#include "cupti_library.hpp"
#include "launch_streams.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// The correlation ids of the calls one scope's thread made while the log was open. Only that thread writes it.
// `expected`: the ids whose work CUPTI must report in a record of its own: every runtime launch/copy/set call,
// and driver calls made directly (not inside a runtime call, whose record carries the runtime call's id);
// cudaLaunchHostFunc and cuLaunchHostFunc run no GPU work and are left out, and so are the graph edits
// (cudaGraphAddMemcpyNode, cuGraphExecMemsetNodeSetParams...), which run nothing.
// `streams`: where those calls sent their work (read at each call's exit, from its parameters: launch_streams.hpp;
// calls that failed sent none), so that the scope can wait for those streams only. A driver call made inside a
// runtime call is read only when the runtime call's own parameters cannot say (CUDA 13's __cudaLaunchKernel).
// `destructions_at_open`: the number of the process's last stream-destroying call when the log opened
// (StreamHandlesHold).
struct LaunchLog {
    std::vector<std::uint32_t> correlations;
    std::vector<std::uint32_t> expected;
    LaunchedStreams streams;
    std::uint64_t destructions_at_open = 0;
};

// Subscribes (once per process: later calls return the first call's result), enabling no callback yet: the subscription holds CUPTI's one subscriber slot (if a tool holds it -
// Nsight Systems or Compute, another profiler - the error says so) and costs a launch nothing.
std::optional<std::string> subscribe_to_launches(const CuptiLibrary& lib);

// Enables the launch callbacks, once per process (later calls return the first call's result): only thread-mode
// scopes need them. Once on they stay on, and every launch call of the process pays for them (0.3-0.4x of an
// empty launch on the H100, bench/kernel_policy [2]); stream-mode scopes never turn them on.
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

// Keeps the stream handles a log recorded usable for the guard's lifetime, or says they may not be. CUDA gives no
// way to tell a destroyed stream's handle from a live one (using one is undefined: an error at best, another
// stream that reused the address, or a crash), and a user may destroy a stream the scope's thread used before the
// scope stops (by any thread). The subscriber sees every call that can end a stream (cudaStreamDestroy,
// cuStreamDestroy, context destruction and reset, cudaDeviceReset: launch_streams.hpp) and remembers the last 64.
// `usable()` is false when one made since the log opened destroyed a stream of the log (by its handle: the
// address may name a new stream since), or every stream of a context or device, or when more than 64 were made
// since; streams the log never saw do not count (the event pool makes and destroys one of its own). While a guard
// with usable() true lives, such calls wait at their entry (as launch calls wait for a flush), so the handles
// stay alive: hold a guard only around calls that return at once (cudaEventRecord, cudaStreamIsCapturing; not a
// synchronisation, not an event's creation), as a destroying thread waits as long; after 100 ms it goes ahead (a
// hang would be worse). Without the launch callbacks (none enabled) nothing is seen, and usable() is false.
class StreamHandlesHold {
public:
    explicit StreamHandlesHold(const LaunchLog& log) noexcept;
    ~StreamHandlesHold();
    StreamHandlesHold(const StreamHandlesHold&) = delete;
    StreamHandlesHold& operator=(const StreamHandlesHold&) = delete;
    bool usable() const noexcept { return holding_; }

private:
    bool holding_ = false;
};

// CUPTI's name of a runtime or driver API call ("cudaLaunchKernel_v7000"), for messages; "(runtime cbid 505)" when
// CUPTI cannot say.
std::string callback_name(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// The subscriber's callback itself, for tests that drive it with made-up callback data (no CUPTI, no GPU), and
// what enable_launch_callbacks() sets once CUPTI reports the stream-destroying calls (tests set it by hand).
CUpti_CallbackFunc launch_callback() noexcept;
void set_stream_destruction_watched(bool watched) noexcept;

// Open and close a log on the calling thread; logs nest (a scope inside a scope sees its launches in both).
void open_launch_log(LaunchLog* log);
void close_launch_log(LaunchLog* log) noexcept;

}  // namespace gpuchrono::cupti
