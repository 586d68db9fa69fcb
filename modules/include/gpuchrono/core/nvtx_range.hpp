// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// NVTX ranges and marks in the "gpuchrono" domain, so that profilers see gpuchrono's scopes: every ScopedTimer
// pushes a range named after its Series (or its policy, "event", "host-clock", ... when it has none) and pops it
// when it stops; every finding that reaches the reaction (finding_reaction.hpp) becomes a mark named by its code.
//
//     ncu --nvtx --nvtx-include "gpuchrono@saxpy/" ./app    profiles only the kernels timed into Series "saxpy"
//
// Ranges are NVTX push/pop ranges: a per-thread stack, so they nest exactly as scopes nest. A timer stopped out
// of order (t1.stop() while a later t2 still runs) closes the innermost range, which is how push/pop works. A
// timer stopped on another thread than the one that started it closes nothing there (popping would close that
// thread's innermost range); its range stays open on the starting thread.
//
// Switching it off, later choices winning:
//   environment  GPUCHRONO_NVTX=0 (or off, false); read once, at the first range or mark.
//   run time     set_nvtx_enabled(false) for the process; a range already open is still closed.
// Cost: with no tool attached NVTX calls are a branch on a null function pointer (nvtx3 loads a tool only when
// one set NVTX_INJECTION64_PATH); bench_nvtx_overhead measures a scope with and without.
//
// This header does not include nvtx3 (the calls are made in src/core/nvtx_range.cpp), so .cu files and the
// module see only the class below.
#pragma once

#include <optional>
#include <string_view>
#include <thread>

namespace gpuchrono {

// The NVTX domain of every gpuchrono range and mark.
inline constexpr const char* nvtx_domain = "gpuchrono";

// Whether new ranges and marks are emitted: set_nvtx_enabled's last value, else GPUCHRONO_NVTX, else true.
bool nvtx_enabled() noexcept;
void set_nvtx_enabled(bool enabled) noexcept;

namespace detail {

// One push/pop range: pushed by the constructor when NVTX is enabled, popped by end() or the destructor,
// exactly once. Moving transfers the duty to pop.
class NvtxRange {
public:
    NvtxRange() noexcept = default;
    // `name` must be null-terminated (a Series name's c_str(), or a policy's string literal).
    explicit NvtxRange(const char* name) noexcept;
    ~NvtxRange() { end(); }

    NvtxRange(NvtxRange&& other) noexcept : thread_(other.thread_), open_(other.open_) { other.open_ = false; }
    NvtxRange& operator=(NvtxRange&& other) noexcept {
        if (this != &other) {
            end();
            thread_ = other.thread_;
            open_ = other.open_;
            other.open_ = false;
        }
        return *this;
    }
    NvtxRange(const NvtxRange&) = delete;
    NvtxRange& operator=(const NvtxRange&) = delete;

    // Pops the range if this object pushed it and has not popped it yet (on the pushing thread only).
    void end() noexcept {
        if (open_) pop();
    }
    bool open() const noexcept { return open_; }

private:
    void pop() noexcept;

    std::thread::id thread_{};
    bool open_ = false;
};

// Makes the first NVTX call of the process (creating the gpuchrono domain) if NVTX is enabled and it has not
// been made: that call initialises NVTX (it looks for an injected tool), microseconds that must not land inside
// an interval. ScopedTimer calls it before its policy starts, since it pushes its range after the start (the
// first scope of a process read +46..+67% above the steady median when the push made that first call).
void prepare_nvtx() noexcept;

// An NVTX mark in the gpuchrono domain, categorised "info", "warning" or "error" by `severity` (0, 1, 2).
void nvtx_mark(const char* text, int severity) noexcept;

}  // namespace detail

}  // namespace gpuchrono
