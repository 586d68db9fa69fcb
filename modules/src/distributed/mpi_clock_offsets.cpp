// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/mpi_clock_offsets.hpp>
#include <gpuchrono/distributed/rank_section.hpp>

#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuchrono::distributed {

namespace {
void mpi_check(int code, const char* call) {
    if (code == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    MPI_Error_string(code, text, &length);
    throw std::runtime_error(std::string("gpuchrono: ") + call + " failed: " + text);
}
constexpr int tag = 0x6770;  // "gp": kept apart from the application's own tags
}  // namespace

ReferenceOffset estimate_offset_to_reference(MPI_Comm comm, int reference_rank, int rounds) {
    if (rounds < 1) throw std::invalid_argument("gpuchrono: estimate_offset_to_reference needs at least one round");
    int rank = 0, size = 0;
    mpi_check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    mpi_check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    if (reference_rank < 0 || reference_rank >= size)
        throw std::invalid_argument("gpuchrono: reference rank " + std::to_string(reference_rank) + " is outside 0.." +
                                    std::to_string(size - 1));
    ReferenceOffset best;
    best.reference_rank = reference_rank;
    if (rank == reference_rank) {
        // Serves each other rank in turn, so that exchanges do not queue behind each other and widen the trips.
        for (int peer = 0; peer < size; ++peer) {
            if (peer == reference_rank) continue;
            for (int i = 0; i < rounds; ++i) {
                std::int64_t t1 = 0;
                mpi_check(MPI_Recv(&t1, 1, MPI_INT64_T, peer, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
                const std::int64_t now = steady_now_ns();
                mpi_check(MPI_Send(&now, 1, MPI_INT64_T, peer, tag, comm), "MPI_Send");
            }
        }
        best.at_steady_ns = steady_now_ns();
        return best;  // offset and error 0: its own clock is the reference
    }
    std::int64_t best_round_trip = INT64_MAX;
    for (int i = 0; i < rounds; ++i) {
        const std::int64_t t1 = steady_now_ns();
        mpi_check(MPI_Send(&t1, 1, MPI_INT64_T, reference_rank, tag, comm), "MPI_Send");
        std::int64_t reference = 0;
        mpi_check(MPI_Recv(&reference, 1, MPI_INT64_T, reference_rank, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
        const std::int64_t t2 = steady_now_ns();
        if (t2 - t1 < best_round_trip) {
            best_round_trip = t2 - t1;
            const std::int64_t middle = t1 + (t2 - t1) / 2;
            best.at_steady_ns = middle;
            best.offset_ns = reference - middle;
            best.error_ns = (t2 - t1 + 1) / 2;
        }
    }
    return best;
}

}  // namespace gpuchrono::distributed
