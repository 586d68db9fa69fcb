// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The program's own gpuchrono scopes under `gpuchrono run` (shared_scopes.cpp), for stand_in_program.
#pragma once

#include <cstdint>

using FakeKernel = void (*)(const char* name, std::uint64_t start, std::uint64_t end, int device);

// MODE shared: a hold, a thread-mode scope's path (window, launch log, flush, collect) around 20 spins and the two
// marks of a stream-mode scope, then CUPTI given back and 10 kernels after it. Prints "ok"/"FAIL" lines; returns the
// number of failures. Kernels run from `clock_start_ns` on (the stand-in's clock).
int shared_scopes(void* cupti, FakeKernel kernel, std::uint64_t clock_start_ns);

// MODE shared-churn: one thread launches 2000 kernels while another takes and gives back gpuchrono's hold 100
// times, flushing inside each: the attachment changes while records flow.
int shared_churn(FakeKernel kernel, std::uint64_t clock_start_ns);

// MODE shared-other-cupti (GPUCHRONO_CUPTI names another CUPTI than the injection's): the hold is refused, saying
// why, and the program's 5 kernels after it are still recorded.
int shared_other_cupti(FakeKernel kernel, std::uint64_t clock_start_ns);
