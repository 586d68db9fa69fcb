// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// CuptiHold: keeps gpuchrono's claim on CUPTI (its subscriber, buffer callbacks and kernel/memcpy/memset records)
// for as long as it lives. CUPTI allows one subscriber per process, so gpuchrono takes it only while something of
// its own needs it: a KernelPolicy (from construction to destruction: a ScopedTimer<KernelPolicy> is one scope),
// a measure() or compare() by the kernel method, a metrics collection, or a CuptiHold. 50 ms after the last of
// them ended with none taken since (at once with release_cupti()), the records of every pending (lazy) scope are
// delivered to their Measurements, and CUPTI is given back: a profiler started afterwards (torch.profiler, a
// tool's own cuptiSubscribe) works as if gpuchrono had never run. The linger lets a loop of scopes, on one thread
// or several, set CUPTI up once (set up and given back per scope on four threads, it crashed the process on an
// H100). The next holder after a give-back sets CUPTI up again (bench/cupti_hold: the cost of that first scope).
//
//     gpuchrono::CuptiHold hold;               // one set-up for the whole loop, not one per scope
//     for (int i = 0; i < n; ++i) {
//         gpuchrono::ScopedTimer<gpuchrono::KernelPolicy> t(stream);
//         my_kernel<<<g, b, 0, stream>>>(...);
//         series.add(t.stop());
//     }
//
// Never throws: when CUPTI cannot be held (no libcupti, or another tool holds the subscriber slot) held() is
// false and why_not() says why; KernelPolicy then refuses as documented (docs/pitfalls.md, cupti-unavailable).
// Inside a program that `gpuchrono run` records, a hold shares the injection's subscription rather than take its
// own, and the last one leaves CUPTI to the injection (docs/run.md, "Another CUPTI user").
// Holds nest and may live on any thread; a hold may end on another thread than the one that took it.
#pragma once

#include <string>

namespace gpuchrono {

class CuptiHold {
public:
    CuptiHold() noexcept;
    ~CuptiHold();
    CuptiHold(CuptiHold&& other) noexcept;
    CuptiHold& operator=(CuptiHold&& other) noexcept;
    CuptiHold(const CuptiHold&) = delete;
    CuptiHold& operator=(const CuptiHold&) = delete;

    bool held() const noexcept { return held_; }
    explicit operator bool() const noexcept { return held_; }
    // Why CUPTI could not be held: what was searched for libcupti and failed, or which tool holds it. Empty if held.
    const std::string& why_not() const noexcept { return why_not_; }

    // Ends the hold now (the destructor then does nothing).
    void release() noexcept;

private:
    bool held_ = false;
    std::string why_not_;
};

// Gives CUPTI back now, if no hold of gpuchrono's (a KernelPolicy, a measure() or compare() by the kernel method, a
// metrics collection, a CuptiHold) is alive; false, and nothing done, if one is. Call it before starting another
// CUPTI tool in the process right after timing (otherwise CUPTI is given back 50 ms after the last hold ended).
bool release_cupti() noexcept;

}  // namespace gpuchrono
