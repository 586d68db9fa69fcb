// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// An NVTX tool compiled into cpu_tests (NVTX's static injection: the program defines
// InitializeInjectionNvtx2_fnptr, and nvtx3 in the library attaches to it at the first NVTX call). It records
// the domain ranges and marks the library emits, so CPU tests can check what a profiler would see.
// Records only while a NvtxRecording is alive; the events of all threads go into one list.
#pragma once

#include <string>
#include <thread>
#include <vector>

struct NvtxEvent {
    enum class Kind { push, pop, mark };
    Kind kind;
    std::string domain;   // the domain's name ("" for NVTX's global domain)
    std::string message;  // empty for a pop
    std::thread::id thread;

    friend bool operator==(const NvtxEvent&, const NvtxEvent&) = default;
};

class NvtxRecording {
public:
    NvtxRecording();   // clears what an earlier recording left and starts recording
    ~NvtxRecording();  // stops recording
    NvtxRecording(const NvtxRecording&) = delete;
    NvtxRecording& operator=(const NvtxRecording&) = delete;

    std::vector<NvtxEvent> events() const;
    // The events as "push:name", "pop", "mark:code", in order, for compact assertions.
    std::vector<std::string> trace() const;
    // Whether the tool was attached at all (false if NVTX_INJECTION64_PATH named another tool).
    static bool attached();
};
