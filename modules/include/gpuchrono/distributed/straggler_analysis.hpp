// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which rank made the others wait. For every scope name that all ranks went through (e.g. "step"), the k-th
// pass of each rank is step k; on the job clock:
//   arrival lateness  = the rank's end minus the earliest end of that step (what a collective after the scope
//                       makes the others wait for);
//   excess duration   = the rank's time in the scope minus the median time of the others (its own slowness,
//                       free of how unevenly the ranks started the step).
// The last rank of a step is the one that ended last; "waited" sums, over the other ranks, how long before it
// they ended. NCCL collective kernels (ncclDevKernel_AllReduce..., ncclKernel_...) are split into the wait
// inside them (start until the last rank's kernel started) and the transfer (from then to the end).
#pragma once

#include <gpuchrono/core/device_busy.hpp>
#include <gpuchrono/core/kernel_activity.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gpuchrono::distributed {

// One rank's scope passes of one name, on the job clock.
struct RankScopes {
    int rank = 0;
    std::vector<std::int64_t> start_ns;
    std::vector<std::int64_t> end_ns;
    std::vector<std::int64_t> gpu_ns;  // GPU activity time inside each pass (clipped to it); empty: not known
};

struct StepLateness {
    std::int64_t spread_ns = 0;            // last end - first end
    int last_rank = -1;
    std::int64_t waited_ns = 0;            // sum over the other ranks of (last end - their end)
    std::int64_t last_lateness_ns = 0;     // last end - median end of the others
    std::int64_t last_excess_ns = 0;       // the last rank's duration - the median duration of the others
    std::vector<std::int64_t> lateness_ns;  // by rank index (position in ranks): end - first end
    std::vector<std::int64_t> excess_ns;    // by rank index: duration - median duration of the others
    // GPU time inside the pass minus the median of the others' (when every rank has it; else empty / 0). On a GPU
    // that ranks share, a late rank's kernel also holds the others' kernels back, which shrinks its lateness at
    // the step's end; its own GPU time does not shrink.
    std::int64_t last_gpu_excess_ns = 0;
    std::vector<std::int64_t> gpu_excess_ns;
};

struct ScopeStragglers {
    std::string name;
    std::vector<int> ranks;  // the ranks, in the order of the per-rank vectors
    std::vector<StepLateness> steps;
    std::vector<int> times_last;                 // by rank index (steps whose spread is a tie count for nobody)
    std::vector<std::int64_t> total_lateness_ns;  // by rank index
    std::string note;  // e.g. "rank 3 has 9 passes, the others 10: steps compared: 9"
};

// Steps compared: the fewest passes any rank has (the note says so when counts differ). Ranks with no pass
// of the name are left out of it (the note names them).
// A step whose spread is not above tie_ns names nobody as last (the merge passes twice its alignment error
// bound: two ranks each placed up to that far off cannot be told apart).
ScopeStragglers analyse_stragglers(std::string name, const std::vector<RankScopes>& ranks, std::int64_t tie_ns = 0);

// Whether a kernel name is one of NCCL's collective kernels, and which collective ("AllReduce", "AllGather",
// "ReduceScatter", "Broadcast", "Reduce", "SendRecv", "AllToAll"), empty when it is not.
std::string nccl_collective_of(const std::string& kernel_name);

// One NCCL collective kernel of one rank, on the job clock.
struct CollectiveKernel {
    std::string collective;  // nccl_collective_of(name)
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

// Wait versus transfer inside one kind of collective, summed over its calls: the k-th kernel of that
// collective on every rank is one call; a rank waits from its own start until the last rank's kernel
// started (no data can move before), and transfers from then to its own end.
struct CollectiveSplit {
    std::string collective;
    std::uint64_t calls = 0;                 // calls every rank made (the fewest, when counts differ)
    std::vector<int> ranks;
    std::vector<std::int64_t> wait_ns;       // by rank index, summed over calls
    std::vector<std::int64_t> transfer_ns;   // by rank index, summed over calls
};

// kernels[i]: the NCCL kernels of ranks[i], in start order.
std::vector<CollectiveSplit> split_collectives(const std::vector<int>& ranks,
                                               const std::vector<std::vector<CollectiveKernel>>& kernels);

// Compute/communication overlap of one rank: the union time of its NCCL kernels that overlaps the union
// time of its other kernels, over the NCCL union time (0..1; NaN without NCCL kernels).
struct Overlap {
    std::int64_t communication_ns = 0;
    std::int64_t compute_ns = 0;
    std::int64_t overlapped_ns = 0;
    double fraction() const noexcept;
};
Overlap compute_communication_overlap(const std::vector<KernelActivity>& activities);

// Busy time and span per device: the same as for one process (core/device_busy.hpp).
using gpuchrono::DeviceBusy;
using gpuchrono::busy_per_device;

}  // namespace gpuchrono::distributed
