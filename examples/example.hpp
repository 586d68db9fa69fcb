// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What every example gets from whoever runs it (its own program, or the tour) and what it gives back: a
// Context with a warmed-up stream and the device's description in, a report::Experiment with its numbers,
// samples, pictures' data and an explanation in words out.
//
// Include after `import gpuchrono;` (it uses the module's names), after <cuda_runtime_api.h> and after
// <gpuchrono/core/cuda_error.hpp> (for the GPUCHRONO_CUDA_CHECK macro, which a module cannot export).
#pragma once

#include <cstddef>
#include <string>

namespace gpuchrono_examples {

class Context {
public:
    // Makes `device` current, creates a non-blocking stream (never the legacy default stream, which would
    // serialise against everything: docs/pitfalls-catalog.md row 12) and warms the GPU up, so no example pays for context
    // creation or the idle clock. Throws CudaError.
    Context(int device, bool quick);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    cudaStream_t stream() const noexcept { return stream_; }
    int device() const noexcept { return device_; }
    bool quick() const noexcept { return quick_; }

    // Repetitions per measurement: `normal`, or fewer with --quick (never below 3: the median needs them).
    int repetitions(int normal) const noexcept { return quick_ ? (normal / 4 > 3 ? normal / 4 : 3) : normal; }

    const gpuchrono::report::DeviceInfo& device_info() const noexcept { return info_; }
    // The SM clock and %globaltimer step measured by a device-clock measurement, kept for the report header
    // (the first measurement's values; later ones of the same run agree to well under a percent).
    void note_device_clock(const gpuchrono::BlockSamples& b);

private:
    int device_;
    bool quick_;
    cudaStream_t stream_ = nullptr;
    gpuchrono::report::DeviceInfo info_;
};

// Device memory for `count` elements of T, freed on destruction. Throws CudaError.
template <class T>
class DeviceArray {
public:
    explicit DeviceArray(std::size_t count) : count_(count) {
        GPUCHRONO_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)),
                             "allocating " + std::to_string(count * sizeof(T)) + " bytes for an example");
    }
    ~DeviceArray() { (void)cudaFree(data_); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;

    T* get() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(T); }

private:
    T* data_ = nullptr;
    std::size_t count_;
};

using ExampleFunction = gpuchrono::report::Experiment (*)(Context&);

// The examples, in the order the tour runs them.
gpuchrono::report::Experiment clock_sweep(Context& ctx);          // seeds 000, 001: examples/clock_sweep.cpp
gpuchrono::report::Experiment memory_patterns(Context& ctx);      // seed 004:        examples/memory_patterns.cpp
gpuchrono::report::Experiment event_and_host_timing(Context& ctx);  // seeds 003, 000: examples/event_and_host_timing.cpp
gpuchrono::report::Experiment block_timing(Context& ctx);         // seed 002:        examples/block_timing.cpp
gpuchrono::report::Experiment header_and_module(Context& ctx);    // both include paths: examples/header_and_module/
gpuchrono::report::Experiment kernel_timing(Context& ctx);        // the bias table: examples/kernel_timing.cpp

struct ExampleEntry {
    const char* id;
    const char* program;  // its own executable
    ExampleFunction run;
};

inline constexpr ExampleEntry all_examples[] = {
    {"clock-sweep", "gpuchrono-example-clock-sweep", clock_sweep},
    {"memory-patterns", "gpuchrono-example-memory-patterns", memory_patterns},
    {"event-and-host-timing", "gpuchrono-example-event-and-host-timing", event_and_host_timing},
    {"block-timing", "gpuchrono-example-block-timing", block_timing},
    {"header-and-module", "gpuchrono-example-header-and-module", header_and_module},
    {"kernel-timing", "gpuchrono-example-kernel-timing", kernel_timing},
};

// The one line a program prints when there is no usable CUDA device, with how to run it on a GPU machine;
// empty when there is a device.
std::string no_device_line(const char* program);

// Adds `more` to `into`, one finding per code: a code seen again only counts up in the first one's message.
void merge_findings(gpuchrono::Findings& into, const gpuchrono::Findings& more);

// "1.23 us" etc., shorthand for explanations.
inline std::string str(gpuchrono::Duration d) { return gpuchrono::to_string(d); }
std::string str(double value, int significant = 3);

// main() of a standalone example: options --out DIR (also write the report files) and --quick; prints the
// experiment's text report. Exit status 0, 1 on an error, 2 on bad options or no device.
int example_main(const char* id, int argc, char** argv);

}  // namespace gpuchrono_examples
