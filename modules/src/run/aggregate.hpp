// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// What `gpuchrono run` keeps of a program's GPU work while it runs: per kernel name (and per NVTX range) the
// call count, total, exact min and max, the first call, and a bounded reservoir sample (reservoir.hpp) for the
// median with its confidence interval and the p95; memcpy and memset totals by kind; per device the busy time,
// the span and the idle gaps between activities; records dropped and CUPTI's own overhead. Memory grows with
// the number of distinct names, never with the number of launches.
//
// Not thread-safe: the injection feeds it from CUPTI's buffer thread under one lock.
#pragma once

#include "run/reservoir.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace gpuchrono::run {

// The figures of one name: every call counted, the durations sampled.
struct DurationTable {
    std::string name;
    std::uint64_t calls = 0;
    double total_ns = 0;
    double min_ns = 0;
    double max_ns = 0;
    double first_ns = 0;  // the first call's duration: module load and JIT land there
    Reservoir sample;

    explicit DurationTable(std::string n = {}, std::size_t capacity = 4096) : name(std::move(n)), sample(capacity) {}
    void add(double ns);
};

// Copies of one kind ("memcpy HtoD", "memset") on all devices.
struct TransferTotals {
    std::uint64_t count = 0;
    std::uint64_t bytes = 0;
    double total_ns = 0;
    double gigabytes_per_second() const noexcept { return total_ns > 0 ? static_cast<double>(bytes) / total_ns : 0; }
};

// One device's activity over time, from records taken in start order per device (CUPTI delivers them nearly
// so; an out-of-order record only shortens the gap it falls into). Busy time is also kept per time bucket from
// the first activity on, at most `max_buckets` of them: when a run outgrows them, neighbours merge and the
// bucket doubles, so a long run keeps a bounded picture of when the device worked.
struct DeviceTime {
    static constexpr std::size_t max_buckets = 512;

    std::uint64_t first_start = 0;     // of the first record: where the buckets begin
    std::uint64_t earliest_start = 0;  // of any record (CUPTI may deliver an earlier one later)
    std::uint64_t last_end = 0;        // the frontier: the latest end seen
    double busy_ns = 0;          // union of activity intervals
    double activity_ns = 0;      // sum of the activities' durations: above busy_ns when they overlapped
    double idle_ns = 0;          // gaps between them inside the span
    double largest_gap_ns = 0;
    std::uint64_t largest_gap_start = 0;  // CUPTI timestamp where it began
    std::uint64_t activities = 0;
    std::uint64_t bucket_ns = 10'000'000;  // 10 ms to start with
    std::vector<double> busy_per_bucket;   // busy ns in [first_start + i bucket_ns, + bucket_ns)

    void add(std::uint64_t start, std::uint64_t end);
    double span_ns() const noexcept { return last_end > earliest_start ? static_cast<double>(last_end - earliest_start) : 0; }

private:
    void add_busy(std::uint64_t from, std::uint64_t to);
};

struct KernelLaunch {
    std::string_view name;      // demangled
    std::uint32_t grid[3] = {1, 1, 1};
    std::uint32_t block[3] = {1, 1, 1};
    int device = 0;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::string_view range;     // the innermost NVTX range open on the launching thread; empty: none
};

struct AggregateOptions {
    std::size_t reservoir = 4096;  // samples kept per name
    bool split_by_shape = false;   // one row per name and grid/block
};

class Aggregate {
public:
    explicit Aggregate(AggregateOptions options = {}) : options_(options) {}

    void add_kernel(const KernelLaunch& k);
    // The same through rows found once (the injection caches them per kernel name and range): no string is
    // built or hashed per record. range_row: no_row for a launch outside every range.
    static constexpr std::size_t no_row = static_cast<std::size_t>(-1);
    std::size_t kernel_row(const KernelLaunch& k) { return index_of(kernels_, kernel_index_, key_of(k)); }
    std::size_t range_row(std::string_view range) { return index_of(ranges_, range_index_, std::string(range)); }
    void add_kernel_at(std::size_t kernel_row, std::size_t range_row, const KernelLaunch& k);
    // kind: "HtoD", "DtoH", "DtoD", ... for copies; "memset" for memsets.
    void add_transfer(std::string_view kind, int device, std::uint64_t bytes, std::uint64_t start_ns, std::uint64_t end_ns);
    void add_overhead(std::string_view kind, std::uint64_t start_ns, std::uint64_t end_ns);
    // Records CUPTI could not keep (buffers full), counted under where they were lost.
    void add_dropped(std::string_view where, std::uint64_t count);
    // Activities left out by the run's filters (--kernels, --nvtx, the recording window).
    void add_filtered(std::uint64_t count = 1) { filtered_ += count; }

    // The row key of a launch: its name, or with split_by_shape "name <<<(x,y,z), (x,y,z)>>>".
    std::string key_of(const KernelLaunch& k) const;

    const std::vector<DurationTable>& kernels() const noexcept { return kernels_; }
    const std::vector<DurationTable>& ranges() const noexcept { return ranges_; }
    const std::map<std::string, TransferTotals>& transfers() const noexcept { return transfers_; }
    const std::map<int, DeviceTime>& devices() const noexcept { return devices_; }
    const std::map<std::string, TransferTotals>& overhead() const noexcept { return overhead_; }
    const std::map<std::string, std::uint64_t>& dropped() const noexcept { return dropped_; }
    std::uint64_t dropped_total() const noexcept;
    std::uint64_t filtered() const noexcept { return filtered_; }
    std::uint64_t kernel_calls() const noexcept { return kernel_calls_; }
    double kernel_time_ns() const noexcept { return kernel_time_ns_; }
    const AggregateOptions& options() const noexcept { return options_; }

private:
    DurationTable& row(std::vector<DurationTable>& rows, std::unordered_map<std::string, std::size_t>& index, std::string key) {
        return rows[index_of(rows, index, std::move(key))];
    }
    std::size_t index_of(std::vector<DurationTable>& rows, std::unordered_map<std::string, std::size_t>& index, std::string key);

    AggregateOptions options_;
    std::vector<DurationTable> kernels_, ranges_;
    std::unordered_map<std::string, std::size_t> kernel_index_, range_index_;
    std::map<std::string, TransferTotals> transfers_, overhead_;
    std::map<int, DeviceTime> devices_;
    std::map<std::string, std::uint64_t> dropped_;
    std::uint64_t filtered_ = 0;
    std::uint64_t kernel_calls_ = 0;
    double kernel_time_ns_ = 0;
};

}  // namespace gpuchrono::run
