// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The in-kernel side of DeviceClockPolicy: RAII region timers that a kernel constructs around the code to be
// timed, block by block. Include this from .cu files only (it is device code); host code gets the probe value
// from the policy:
//
//     // host (.cpp or .cu)
//     gpuchrono::ScopedTimer<gpuchrono::DeviceClockPolicy> t(
//         stream, gpuchrono::DeviceClockPolicy::Options{.regions = {"load", "reduce"}});
//     my_kernel<<<blocks, threads, 0, stream>>>(args, t.policy().probe());
//     const gpuchrono::Measurement& m = t.stop();   // m.blocks()->samples: one per (block, region)
//
//     // device (.cu)
//     #include <gpuchrono/device_probe.cuh>   // or <gpuchrono/policies/device_clock/device_probe.cuh>
//     __global__ void my_kernel(Args args, gpuchrono::DeviceProbe probe) {
//         { gpuchrono::ProbeRegion load(probe, 0);  ...load... }
//         {
//             gpuchrono::ProbeLoop reduce(probe, 1);        // one record: total and count
//             for (int i = 0; i < n; ++i) {
//                 auto step = reduce.iteration();          // times this iteration, adds it to the total
//                 ...
//             }
//         }
//     }
//
// What a region does (docs/pitfalls-catalog.md rows 15-21):
//   entry: __syncthreads(), then thread (0,0,0) reads %smid, %globaltimer and clock64;
//   exit:  __syncthreads(), then thread (0,0,0) reads clock64, %globaltimer and %smid, and writes the record.
// So a region is block time: from the moment every thread has arrived to the moment every thread has left.
// clock64 is read innermost at both ends, so the cycle interval holds as little of the probe as possible.
// Every read is `asm volatile` with a "memory" clobber: the compiler cannot move loads or stores across it.
// It can still move pure register arithmetic, and a load whose value is not yet used may still be in
// flight: consume (store) what the region computes inside the region.
//
// RULES (the barriers make these hard requirements):
// - Every thread of the block must construct and destroy every region, in the same order: never construct
//   one under a condition that differs between threads of a block, and never `return` from inside a region
//   in only some threads. A region entered by part of a block deadlocks or is undefined behaviour.
//   Conditions uniform over the block (e.g. on blockIdx) are fine: such blocks simply have no record.
// - A plain ProbeRegion runs at most once per block per launch (its record has one slot). For code that runs
//   many times use ProbeLoop, which keeps one record with the total and the count.
// - One probe serves one launch. The host refuses records written twice (a re-launch into the same probe).
// - Region ids must be below the number of regions the host named; others are counted and the host refuses
//   the measurement.
// - Blocks at or beyond the probe's capacity write nothing: their records are counted as dropped (with their
//   earliest start and latest stop, so the kernel-level duration still covers them).
//
// Cost: one barrier and one read sequence at each end; the host calibrates an empty region per device and
// block size and reports it (BlockSamples::overhead). Nested regions are allowed; the outer one then holds
// the inner one's probe cost, including its record stores.
#pragma once

#if !defined(__CUDACC__)
#error "gpuchrono/device_probe.cuh is device code: include it from .cu files compiled by nvcc"
#endif

#include <gpuchrono/core/cuda_error.hpp>
#include <gpuchrono/core/probe_layout.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace gpuchrono {

// The three clocks, each read exactly where it is written.
__device__ __forceinline__ std::uint64_t read_globaltimer() {
    std::uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}

__device__ __forceinline__ std::uint64_t read_clock64() {
    std::uint64_t c;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
    return c;
}

__device__ __forceinline__ std::uint32_t read_smid() {
    std::uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s)::"memory");
    return s;
}

namespace probe_detail {

struct ClockRead {
    std::uint64_t ns = 0;
    std::uint64_t cycles = 0;
    std::uint32_t sm = 0;
};

__device__ __forceinline__ ClockRead read_at_start() {
    ClockRead r;
    r.sm = read_smid();
    r.ns = read_globaltimer();
    r.cycles = read_clock64();
    return r;
}

__device__ __forceinline__ ClockRead read_at_stop() {
    ClockRead r;
    r.cycles = read_clock64();
    r.ns = read_globaltimer();
    r.sm = read_smid();
    return r;
}

__device__ __forceinline__ std::uint64_t read_gridid() {
    std::uint64_t g;
    asm volatile("mov.u64 %0, %%gridid;" : "=l"(g)::"memory");
    return g;
}

__device__ __forceinline__ bool is_reader() { return threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0; }

__device__ __forceinline__ bool enabled(const DeviceProbe& p) {
    return p.header != nullptr && p.records != nullptr && p.region_count != 0;
}

__device__ __forceinline__ unsigned long long linear_block() {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                            (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
}

// Called by the reader thread only, after the stop read: nothing here is inside the region it records.
__device__ __forceinline__ void write_record(const DeviceProbe& p, std::uint32_t region, const ClockRead& start,
                                             const ClockRead& stop, std::uint64_t count, std::uint64_t accumulated_ns,
                                             std::uint64_t accumulated_cycles, std::uint32_t flags) {
    ProbeHeader* h = p.header;
    if (region >= p.region_count) {
        atomicAdd(&h->invalid_region_uses, 1ull);
        atomicMax(&h->max_invalid_region, region);
        return;
    }
    const unsigned long long grid = static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
    atomicMax(&h->grid_blocks, grid);
    atomicMax(&h->block_threads, blockDim.x * blockDim.y * blockDim.z);
    const unsigned long long block = linear_block();
    if (block >= p.capacity_blocks) {
        atomicAdd(&h->dropped, 1ull);
        atomicMax(&h->dropped_first_start_inverted, ~static_cast<unsigned long long>(start.ns));
        atomicMax(&h->dropped_last_stop, static_cast<unsigned long long>(stop.ns));
        return;
    }
    ProbeRecord& r = p.records[block * p.region_count + region];
    r.start_ns = start.ns;
    r.stop_ns = stop.ns;
    r.start_cycles = start.cycles;
    r.stop_cycles = stop.cycles;
    r.count = count;
    r.accumulated_ns = accumulated_ns;
    r.accumulated_cycles = accumulated_cycles;
    r.grid_id = read_gridid();
    r.block = static_cast<std::uint32_t>(block);
    r.region = region;
    r.sm_start = start.sm;
    r.sm_stop = stop.sm;
    r.flags = flags;
    atomicAdd(&r.writes, 1u);
}

}  // namespace probe_detail

// Times one region of a kernel, once per block. See the rules at the top of this file.
class ProbeRegion {
public:
    __device__ ProbeRegion(const DeviceProbe& probe, std::uint32_t region) : probe_(probe), region_(region) {
        __syncthreads();
        if (probe_detail::is_reader() && probe_detail::enabled(probe_)) start_ = probe_detail::read_at_start();
    }

    __device__ ~ProbeRegion() {
        __syncthreads();
        if (probe_detail::is_reader() && probe_detail::enabled(probe_)) {
            const probe_detail::ClockRead stop = probe_detail::read_at_stop();
            const bool same_sm = start_.sm == stop.sm;
            // Cycle counters of different SMs are unrelated (offsets of milliseconds): never subtract them.
            probe_detail::write_record(probe_, region_, start_, stop, 1, stop.ns - start_.ns,
                                       same_sm ? stop.cycles - start_.cycles : 0,
                                       same_sm ? 0u : probe_flag_sm_changed);
        }
    }

    ProbeRegion(const ProbeRegion&) = delete;
    ProbeRegion& operator=(const ProbeRegion&) = delete;

private:
    DeviceProbe probe_;  // a copy: a reference would dangle if the region were given a temporary
    std::uint32_t region_;
    probe_detail::ClockRead start_{};
};

// An accumulating region for code that runs many times (a loop body, a device function called repeatedly):
// every Iteration is timed like a ProbeRegion, and the loop keeps the total and the count in registers. It
// writes ONE record when it is destroyed: count = iterations, accumulated_ns/cycles = totals, start = the
// first iteration's entry, stop = the last iteration's exit. A loop that ran no iteration writes nothing.
// Each Iteration synchronises the block twice, so every thread must run every iteration.
class ProbeLoop {
public:
    class Iteration {
    public:
        __device__ explicit Iteration(ProbeLoop& loop) : loop_(loop) {
            __syncthreads();
            if (probe_detail::is_reader() && probe_detail::enabled(loop_.probe_)) start_ = probe_detail::read_at_start();
        }
        __device__ ~Iteration() {
            __syncthreads();
            if (probe_detail::is_reader() && probe_detail::enabled(loop_.probe_)) loop_.add(start_, probe_detail::read_at_stop());
        }
        Iteration(const Iteration&) = delete;
        Iteration& operator=(const Iteration&) = delete;

    private:
        ProbeLoop& loop_;
        probe_detail::ClockRead start_{};
    };

    __device__ ProbeLoop(const DeviceProbe& probe, std::uint32_t region) : probe_(probe), region_(region) {}

    __device__ ~ProbeLoop() {
        if (probe_detail::is_reader() && probe_detail::enabled(probe_) && count_ != 0)
            probe_detail::write_record(probe_, region_, first_, last_, count_, ns_, cycles_,
                                       probe_flag_accumulating | (sm_changed_ ? probe_flag_sm_changed : 0u));
    }

    // `auto it = loop.iteration();` times the rest of the enclosing scope as one iteration.
    __device__ Iteration iteration() { return Iteration(*this); }

    ProbeLoop(const ProbeLoop&) = delete;
    ProbeLoop& operator=(const ProbeLoop&) = delete;

private:
    __device__ void add(const probe_detail::ClockRead& start, const probe_detail::ClockRead& stop) {
        if (count_ == 0) first_ = start;
        last_ = stop;
        ++count_;
        ns_ += stop.ns - start.ns;
        if (start.sm == stop.sm)
            cycles_ += stop.cycles - start.cycles;
        else
            sm_changed_ = true;  // this iteration's cycles are left out; the host then uses ns only
    }

    DeviceProbe probe_;
    std::uint32_t region_;
    probe_detail::ClockRead first_{};
    probe_detail::ClockRead last_{};
    std::uint64_t count_ = 0;
    std::uint64_t ns_ = 0;
    std::uint64_t cycles_ = 0;
    bool sm_changed_ = false;
};

// How many blocks of `kernel` one SM holds at once with this block size (the occupancy), for
// DeviceClockPolicy::Options::resident_blocks_per_sm and the waves view. Host code; throws CudaError.
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
    int blocks = 0;
    GPUCHRONO_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads_per_block, dynamic_shared_bytes),
        "computing the resident blocks per SM of a kernel with " + std::to_string(threads_per_block) + " threads");
    return blocks;
}

}  // namespace gpuchrono
