// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/collective_bandwidth.hpp>

#include <array>
#include <cctype>
#include <stdexcept>
#include <string>

namespace gpuchrono::distributed {

const char* to_string(Collective c) noexcept {
    switch (c) {
        case Collective::all_reduce: return "all-reduce";
        case Collective::all_gather: return "all-gather";
        case Collective::reduce_scatter: return "reduce-scatter";
        case Collective::all_to_all: return "all-to-all";
        case Collective::broadcast: return "broadcast";
        case Collective::reduce: return "reduce";
        case Collective::send_recv: return "send-recv";
    }
    return "unknown";
}

std::optional<Collective> collective_from_string(std::string_view name) {
    std::string key;
    for (const char c : name)
        if (std::isalnum(static_cast<unsigned char>(c))) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static constexpr std::array<std::pair<std::string_view, Collective>, 8> names{{
        {"allreduce", Collective::all_reduce}, {"allgather", Collective::all_gather},
        {"reducescatter", Collective::reduce_scatter}, {"alltoall", Collective::all_to_all},
        {"broadcast", Collective::broadcast}, {"reduce", Collective::reduce},
        {"sendrecv", Collective::send_recv}, {"p2p", Collective::send_recv},
    }};
    for (const auto& [n, c] : names)
        if (key == n) return c;
    return std::nullopt;
}

CollectiveBandwidth collective_bandwidth(Collective c, std::uint64_t bytes, double seconds, int ranks) {
    if (!(seconds > 0)) throw std::invalid_argument("gpuchrono: a collective's time must be > 0 s, not " + std::to_string(seconds));
    if (ranks < 1) throw std::invalid_argument("gpuchrono: a collective needs >= 1 rank, not " + std::to_string(ranks));
    const double n = ranks;
    const double algbw = static_cast<double>(bytes) / seconds;
    double factor = 1.0;
    switch (c) {
        case Collective::all_reduce: factor = 2.0 * (n - 1) / n; break;
        case Collective::all_gather:
        case Collective::reduce_scatter:
        case Collective::all_to_all: factor = (n - 1) / n; break;
        case Collective::broadcast:
        case Collective::reduce:
        case Collective::send_recv: factor = 1.0; break;
    }
    return {algbw, algbw * factor};
}

}  // namespace gpuchrono::distributed
