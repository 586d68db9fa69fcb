// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono's hold of CUPTI, counted, and the flush that pending scopes share. Internal.
// The first holder (a CuptiHold: cupti_hold.hpp) sets CUPTI up before any scope of its starts, so none of the cost
// lands in an interval: load libcupti (once: it stays loaded, as its threads may still call back), subscribe to the
// launch APIs, register the activity buffers, enable kernel, memcpy and memset records. The last holder to end
// flushes the records of every pending scope into the store, then disables those kinds and unsubscribes, so that
// another tool (torch.profiler, a tool's own cuptiSubscribe) can take CUPTI as if gpuchrono had never run; the next
// holder sets it up again. Not cuptiFinalize: another subscriber needs only the slot that cuptiUnsubscribe frees,
// and finalizing would also tear down what other tools set up in CUPTI (NVIDIA advises it only from an API exit
// callback, which Kineto does when TEARDOWN_CUPTI=1).
//
// Inside a program that `gpuchrono run` records, the injection holds the subscriber slot and the buffers from CUDA's
// start: the first holder then shares them (run_share.hpp) instead, and the last one detaches, leaving the activity
// kinds on and the subscription to the injection.
#pragma once

#include "cupti_library.hpp"

#include "cupti/activity_store.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gpuchrono::cupti {

// A scope whose records can be read once its GPU work has finished and a flush has run after that.
class FlushWaiter {
public:
    virtual ~FlushWaiter() = default;
    virtual void wait_for_work() = 0;  // blocks until the scope's work has finished on the GPU; may throw
    bool flushed = false;              // guarded by the session's flush mutex
};

// While CUPTI's range profiler is enabled (gpuchrono::metrics), CUPTI delivers no kernel activity records
// (H100, CUDA 13.0: KernelPolicy then timed 0 ns); once it is disabled they come again (seen on the same H100).
// The collector marks the silence here (nullptr: cleared) and registers how to end it: KernelPolicy first asks
// for the release (which disables a profiler kept enabled between scopes, unless a scope is open) and reports
// itself unavailable only if the silence remains, so measure() falls back to the graph or event method.
void mark_activity_silenced(const char* why) noexcept;
const char* activity_silenced() noexcept;  // the reason, or nullptr
void set_silence_release(void (*release)() noexcept) noexcept;
// Calls the registered release, if any; returns the reason the silence remains, or nullptr.
const char* release_activity_silence() noexcept;

// Whether gpuchrono holds CUPTI now (without taking a hold).
bool activity_session_active() noexcept;
// Whether that hold shares `gpuchrono run`'s subscription (run_share.hpp).
bool activity_session_shared() noexcept;
// Enables again the activity kinds the session records (CONCURRENT_KERNEL, MEMCPY, MEMSET): the metrics
// collector calls it after disabling CUPTI's range profiler, whose kernel replay leaves kernel records off.
void reenable_activity_kinds() noexcept;
// Turns those kinds off while a metrics collection profiles: with the kernel records on, CUPTI's range profiler
// counted 0 FP32 instructions for an FMA loop on an H100. Disabling the profiler turns them on again.
void pause_activity_kinds() noexcept;

class CuptiSession {
public:
    // Takes a hold: the session, set up if no one held it; nullptr if CUPTI cannot be used now (not loadable, or
    // another tool holds the subscriber slot), with the reason in `why`, and no hold taken.
    static CuptiSession* acquire(std::string& why) noexcept;
    // Ends a hold taken by acquire(); 50 ms after the last one ends with no new one taken, every pending scope is
    // flushed and CUPTI given back (by a thread of the session's), so a loop of scopes sets CUPTI up once.
    static void release() noexcept;
    // Gives CUPTI back now if no hold is alive (false if one is): release_cupti().
    static bool give_back_now() noexcept;
    // Another tool records through CUPTI's activity buffers without subscribing (torch.profiler): while `tool` is
    // not empty, a set-up is refused naming it, as when another tool holds the subscriber slot.
    static void set_taken_by(std::string tool);
    static std::size_t holders() noexcept;       // holds now
    static std::size_t acquisitions() noexcept;  // times CUPTI was set up in this process

    // The session while a hold exists (takes none); nullptr otherwise, with the reason in `why`.
    static CuptiSession* get(std::string& why) noexcept;

    const CuptiLibrary& library() const noexcept { return lib_; }
    ActivityStore& store() noexcept { return store_; }

    std::uint64_t timestamp() const;                  // cuptiGetTimestamp: the clock of the records
    std::uint32_t stream_id(cudaStream_t stream) const;  // CUPTI's id of a stream (what records carry)

    // Delivers the records of work that had finished when this was called: cuptiActivityFlushAll(0), which hands
    // over the buffers whose records are all complete. Threads share flushes: if a flush that began after this
    // call arrived has completed meanwhile (another thread's), it returns at once, as that flush delivered what
    // this caller needs. Never forced (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED): a forced flush hands over buffers that
    // other threads' launches are still filling, which CUPTI advises only at the end of a session. Throws
    // TimerError on failure.
    void flush();

    // Lazy scopes: one flush for all of them. register_pending() adds a scope; serve(s) returns at once if s was
    // flushed already, else waits for the work of every registered unflushed scope, flushes once, and marks
    // them all flushed.
    void register_pending(const std::shared_ptr<FlushWaiter>& scope);
    void serve(FlushWaiter& scope);

    std::size_t flushes() const noexcept { return flushes_.load(std::memory_order_relaxed); }

    void disable_kinds() noexcept;  // the recorded activity kinds off (pause_activity_kinds, a give-back)

private:
    explicit CuptiSession(const CuptiLibrary& lib) : lib_(lib) {}
    static void give_back_after_linger() noexcept;  // the thread that gives CUPTI back after the linger

    std::optional<std::string> set_up();  // buffers, attributes, activity kinds; the error text on failure
    std::optional<std::string> set_up_shared();  // the same, sharing gpuchrono run's subscription
    void tear_down() noexcept;            // the last holder's end (see the file comment)
    // Waits for the work of every pending scope whose Measurement still exists and delivers its records.
    void serve_all() noexcept;

    const CuptiLibrary& lib_;
    ActivityStore store_;
    std::mutex flush_mutex_;  // serve(): the pending scopes
    std::mutex flushing_;     // flush(): one at a time (see flush())
    std::vector<std::weak_ptr<FlushWaiter>> pending_;
    std::atomic<std::size_t> flushes_{0};  // begun; under flushing_, every begun flush has ended
};

}  // namespace gpuchrono::cupti
