// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Activity records made up for the CPU tests of stream-mode attribution and the idle gap: a kernel with the given
// interval, correlation id, CUPTI stream, graph id and device.
#pragma once

#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <string>
#include <utility>

namespace gpuchrono::test {

inline KernelActivity made_up_kernel(std::string name, std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                                     std::uint32_t stream, std::uint32_t graph = 0, int device = 0) {
    KernelActivity a;
    a.name = std::move(name);
    a.start_ns = start;
    a.end_ns = end;
    a.correlation_id = correlation;
    a.stream = stream;
    a.device = device;
    a.graph_id = graph;
    return a;
}

}  // namespace gpuchrono::test
