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

void DeviceTime::add_busy(std::uint64_t from, std::uint64_t to) {
    // Records before the first one (out of order) count in the first bucket.
    std::uint64_t at = std::max(from, first_start);
    if (to <= at) {
        if (to > from && !busy_per_bucket.empty()) busy_per_bucket[0] += static_cast<double>(to - from);
        return;
    }
    while (at < to) {
        std::size_t i = static_cast<std::size_t>((at - first_start) / bucket_ns);
        while (i >= max_buckets) {  // merge neighbours: half as many buckets, each twice as long
            for (std::size_t j = 0; j < busy_per_bucket.size(); j += 2)
                busy_per_bucket[j / 2] = busy_per_bucket[j] + (j + 1 < busy_per_bucket.size() ? busy_per_bucket[j + 1] : 0.0);
            busy_per_bucket.resize((busy_per_bucket.size() + 1) / 2);
            bucket_ns *= 2;
            i = static_cast<std::size_t>((at - first_start) / bucket_ns);
        }
        if (busy_per_bucket.size() <= i) busy_per_bucket.resize(i + 1, 0.0);
        const std::uint64_t bucket_end = first_start + (i + 1) * bucket_ns;
        const std::uint64_t until = std::min(to, bucket_end);
        busy_per_bucket[i] += static_cast<double>(until - at);
        at = until;
    }
}

void DeviceTime::add(std::uint64_t start, std::uint64_t end) {
    if (end < start) end = start;
    ++activities;
    activity_ns += static_cast<double>(end - start);
    if (activities == 1) {
        first_start = earliest_start = start;
        last_end = end;
        busy_ns = static_cast<double>(end - start);
        add_busy(start, end);
        return;
    }
    earliest_start = std::min(earliest_start, start);
    if (start > last_end) {
        const double gap = static_cast<double>(start - last_end);
        idle_ns += gap;
        if (gap > largest_gap_ns) {
            largest_gap_ns = gap;
            largest_gap_start = last_end;
        }
        busy_ns += static_cast<double>(end - start);
        add_busy(start, end);
        last_end = end;
    } else if (end > last_end) {
        busy_ns += static_cast<double>(end - last_end);
        add_busy(last_end, end);
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

std::size_t Aggregate::index_of(std::vector<DurationTable>& rows, std::unordered_map<std::string, std::size_t>& index,
                                std::string key) {
    const auto [it, added] = index.try_emplace(std::move(key), rows.size());
    if (added) rows.emplace_back(it->first, options_.reservoir);
    return it->second;
}

void Aggregate::add_kernel(const KernelLaunch& k) {
    add_kernel_at(kernel_row(k), k.range.empty() ? no_row : range_row(k.range), k);
}

void Aggregate::add_kernel_at(std::size_t kernel_row, std::size_t range_row, const KernelLaunch& k) {
    const double ns = k.end_ns > k.start_ns ? static_cast<double>(k.end_ns - k.start_ns) : 0.0;
    kernels_[kernel_row].add(ns);
    if (range_row != no_row) ranges_[range_row].add(ns);
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
