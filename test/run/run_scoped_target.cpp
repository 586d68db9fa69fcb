// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// A program that times its own kernels with gpuchrono, recorded by `gpuchrono run` in run_gpu_test.py: its scopes
// must share the injection's CUPTI subscription and read what they read anywhere else.
//
//   run_scoped_target N D_US   under one CuptiHold: N KernelPolicy scopes (stream mode) and N (thread mode) around a
//                              spin of D_US microseconds each, then measure() of the same spin by the kernel method with a cold L2
//
// Prints one JSON line: whether the hold shared run's subscription (or why it was not held), every scope's reading,
// measure()'s method, note and median, the spins launched in all (what the run's report must count), and the
// codes of every warning or error finding. Exit status 77 when there is no CUDA device.
#include "spin.hpp"

#include "cupti/hold_counts.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include <gpuchrono/api.hpp>

namespace {

using gpuchrono::Duration;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "run_scoped_target: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out + "\"";
}

std::string list(const std::vector<double>& values) {
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i) out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

std::set<std::string> warnings;

void keep_warnings(const gpuchrono::Findings& found) {
    for (const gpuchrono::Finding& f : found)
        if (f.severity != gpuchrono::Severity::info) warnings.insert(f.code);
}

}  // namespace

int main(int argc, char** argv) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::puts("run_scoped_target: no CUDA device");
        return 77;
    }
    const int n = argc > 1 ? std::atoi(argv[1]) : 200;
    const Duration d = Duration::from_ns((argc > 2 ? std::atof(argv[2]) : 20.0) * 1000.0);
    cudaStream_t stream;
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
    long launched = 0;

    gpuchrono::CuptiHold hold;
    const bool shared = gpuchrono::cupti::cupti_shared_with_run();
    std::vector<double> by_stream, by_thread;
    using gpuchrono::KernelPolicy;
    for (const auto count : {KernelPolicy::Count::stream, KernelPolicy::Count::thread}) {
        for (int i = 0; i < n; ++i) {
            gpuchrono::ScopedTimer<KernelPolicy> t(stream, KernelPolicy::Options{.count = count});
            gpuchrono::kernels::launch_spin(d, stream);
            ++launched;
            const gpuchrono::Measurement m = t.stop();
            (count == KernelPolicy::Count::stream ? by_stream : by_thread).push_back(m.duration().ns());
            keep_warnings(m.findings());
        }
    }
    gpuchrono::MeasureOptions options;
    options.method = gpuchrono::Method::kernel;
    // Cold: each sample scrubs L2 first with a kernel of gpuchrono's own, which the run's report must leave out of
    // its tables and count in a note.
    options.cache = gpuchrono::CacheState::cold;
    const gpuchrono::Series s = gpuchrono::measure(
        "spin", stream,
        [&](cudaStream_t st) {
            ++launched;
            gpuchrono::kernels::launch_spin(d, st);
        },
        options);
    keep_warnings(s.findings());
    check(cudaStreamSynchronize(stream), "spin");
    const auto& record = s.measure_record();

    std::string codes = "[";
    for (const std::string& c : warnings) codes += (codes.size() > 1 ? "," : "") + quoted(c);
    codes += "]";
    std::printf("{\"held\": %s, \"why_not\": %s, \"shared\": %s, \"stream_ns\": %s, \"thread_ns\": %s, "
                "\"measure_method\": %s, \"measure_note\": %s, \"measure_median_ns\": %f, \"measure_samples\": %zu, "
                "\"spins_launched\": %ld, \"warnings\": %s}\n",
                hold.held() ? "true" : "false", quoted(hold.why_not()).c_str(), shared ? "true" : "false",
                list(by_stream).c_str(), list(by_thread).c_str(),
                quoted(record ? gpuchrono::to_string(record->method) : "").c_str(),
                quoted(record ? record->method_note : "").c_str(), record ? record->interval.median_ns : 0.0, s.size(),
                launched, codes.c_str());
    check(cudaStreamDestroy(stream), "stream");
    return 0;
}
