// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "run/aggregate.hpp"

#include <algorithm>
#include <cstdio>

namespace gpuchrono::run {

void DurationTable::add(double ns) {
    if (calls == 0) {
        min_ns = max_ns = first_ns = ns;
    } else {
        min_ns = std::min(min_ns, ns);
        max_ns = std::max(max_ns, ns);
    }
    ++calls;
    total_ns += ns;
    sample.add(ns);
}

void DeviceTime::add(std::uint64_t start, std::uint64_t end) {
    if (end < start) end = start;
    ++activities;
    if (activities == 1) {
        first_start = start;
        last_end = end;
        busy_ns = static_cast<double>(end - start);
        return;
    }
    if (start < first_start) first_start = start;
    if (start > last_end) {
        const double gap = static_cast<double>(start - last_end);
        idle_ns += gap;
        if (gap > largest_gap_ns) {
            largest_gap_ns = gap;
            largest_gap_start = last_end;
        }
        busy_ns += static_cast<double>(end - start);
        last_end = end;
    } else if (end > last_end) {
        busy_ns += static_cast<double>(end - last_end);
        last_end = end;
    }
}

std::string Aggregate::key_of(const KernelLaunch& k) const {
    std::string key(k.name);
    if (options_.split_by_shape) {
        char shape[96];
        std::snprintf(shape, sizeof shape, " <<<(%u,%u,%u), (%u,%u,%u)>>>", k.grid[0], k.grid[1], k.grid[2], k.block[0],
                      k.block[1], k.block[2]);
        key += shape;
    }
    return key;
}

DurationTable& Aggregate::row(std::vector<DurationTable>& rows, std::unordered_map<std::string, std::size_t>& index,
                              std::string key) {
    const auto [it, added] = index.try_emplace(std::move(key), rows.size());
    if (added) rows.emplace_back(it->first, options_.reservoir);
    return rows[it->second];
}

void Aggregate::add_kernel(const KernelLaunch& k) {
    const double ns = k.end_ns > k.start_ns ? static_cast<double>(k.end_ns - k.start_ns) : 0.0;
    row(kernels_, kernel_index_, key_of(k)).add(ns);
    if (!k.range.empty()) row(ranges_, range_index_, std::string(k.range)).add(ns);
    devices_[k.device].add(k.start_ns, k.end_ns);
    ++kernel_calls_;
    kernel_time_ns_ += ns;
}

void Aggregate::add_transfer(std::string_view kind, int device, std::uint64_t bytes, std::uint64_t start_ns,
                             std::uint64_t end_ns) {
    TransferTotals& t = transfers_[std::string(kind)];
    ++t.count;
    t.bytes += bytes;
    t.total_ns += end_ns > start_ns ? static_cast<double>(end_ns - start_ns) : 0.0;
    devices_[device].add(start_ns, end_ns);
}

void Aggregate::add_overhead(std::string_view kind, std::uint64_t start_ns, std::uint64_t end_ns) {
    TransferTotals& t = overhead_[std::string(kind)];
    ++t.count;
    t.total_ns += end_ns > start_ns ? static_cast<double>(end_ns - start_ns) : 0.0;
}

void Aggregate::add_dropped(std::string_view where, std::uint64_t count) {
    if (count > 0) dropped_[std::string(where)] += count;
}

std::uint64_t Aggregate::dropped_total() const noexcept {
    std::uint64_t n = 0;
    for (const auto& [where, count] : dropped_) n += count;
    return n;
}

}  // namespace gpuchrono::run
