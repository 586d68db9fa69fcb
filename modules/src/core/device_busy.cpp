// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/core/device_busy.hpp>

#include "intervals.hpp"

#include <map>

namespace gpuchrono {

std::vector<DeviceBusy> busy_per_device(const std::vector<KernelActivity>& activities) {
    std::map<int, std::vector<detail::Interval>> by_device;
    for (const KernelActivity& a : activities)
        by_device[a.device].push_back({static_cast<std::int64_t>(a.start_ns), static_cast<std::int64_t>(std::max(a.start_ns, a.end_ns))});
    std::vector<DeviceBusy> out;
    for (auto& [device, intervals] : by_device) {
        DeviceBusy b;
        b.device = device;
        b.activities = intervals.size();
        const auto u = detail::union_of(std::move(intervals));
        b.busy_ns = detail::length(u);
        b.span_ns = u.empty() ? 0 : u.back().second - u.front().first;
        out.push_back(b);
    }
    return out;
}

}  // namespace gpuchrono
