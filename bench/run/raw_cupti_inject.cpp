// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The floor of an injection profiler: CUPTI's kernel activity records alone, counted and nothing else (no
// callbacks, no NVTX, no tables), as NVIDIA's cupti_trace_injection sample sets it up. run_overhead.py runs a
// workload under it (CUDA_INJECTION64_PATH) beside `gpuchrono run`. At exit it writes the record count and
// the median kernel duration to $GPUCHRONO_BENCH_RAW_OUT, the exactness reference.
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "cupti/toolkit.hpp"

namespace {

constexpr std::size_t buffer_bytes = 8u << 20;
std::mutex lock;
std::vector<std::uint32_t> durations;  // bounded: every 16th record past a million
std::uint64_t records = 0;

void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, buffer_bytes));
    *size = buffer_bytes;
    *max_records = 0;
}

void CUPTIAPI completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
    CUpti_Activity* a = nullptr;
    const std::lock_guard guard(lock);
    while (cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS) {
        if (a->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
        const auto* k = reinterpret_cast<const gpuchrono::toolkit::KernelRecord*>(a);
        if (records < 1000000 || records % 16 == 0) durations.push_back(static_cast<std::uint32_t>(k->end - k->start));
        ++records;
    }
    std::free(buffer);
}

void at_exit() {
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    const char* out = std::getenv("GPUCHRONO_BENCH_RAW_OUT");
    if (!out) return;
    const std::lock_guard guard(lock);
    double median = 0;
    if (!durations.empty()) {
        std::nth_element(durations.begin(), durations.begin() + static_cast<long>(durations.size() / 2), durations.end());
        median = durations[durations.size() / 2];
    }
    if (std::FILE* f = std::fopen(out, "w")) {
        std::fprintf(f, "records=%llu median_ns=%.0f\n", static_cast<unsigned long long>(records), median);
        std::fclose(f);
    }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
    cuptiActivityRegisterCallbacks(requested, completed);
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    std::atexit(at_exit);
    return 1;
}
