// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Algorithm and bus bandwidth of a collective, as nccl-tests defines them (doc/PERFORMANCE.md of
// github.com/NVIDIA/nccl-tests): algbw = S / t, with S the bytes each rank's operation covers (for all-gather,
// reduce-scatter and all-to-all the whole count * size * n); busbw scales it by the share of data that
// must cross the slowest link, so that it is comparable with the hardware's peak whatever n is:
//   all-reduce                         busbw = algbw * 2(n-1)/n
//   all-gather, reduce-scatter, all-to-all busbw = algbw * (n-1)/n
//   broadcast, reduce, send/recv       busbw = algbw
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuchrono::distributed {

enum class Collective { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv };

const char* to_string(Collective c) noexcept;
// "allreduce", "all-reduce", "AllReduce", "all_reduce" ... any case, with or without separators.
std::optional<Collective> collective_from_string(std::string_view name);

struct CollectiveBandwidth {
    double algbw_bytes_per_second = 0;
    double busbw_bytes_per_second = 0;
};

// bytes: S as nccl-tests counts it; seconds > 0; ranks >= 1. Throws std::invalid_argument otherwise.
CollectiveBandwidth collective_bandwidth(Collective c, std::uint64_t bytes, double seconds, int ranks);

}  // namespace gpuchrono::distributed
