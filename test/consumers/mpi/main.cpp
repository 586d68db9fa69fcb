// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The installed gpuchrono::mpi, run as one MPI process (a singleton: no mpirun): its offset to itself, the
// reference rank, must be 0 with a bound of 0, and the rank's report section must name it as rank 0 of 1.
#include <gpuchrono/distributed/mpi_clock_offsets.hpp>
#include <gpuchrono/distributed/rank_section.hpp>

#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int failures = 0;
    try {
        gpuchrono::distributed::ScopeLog log;
        const gpuchrono::distributed::ReferenceOffset o = gpuchrono::distributed::estimate_offset_to_reference(MPI_COMM_WORLD);
        log.add_reference_offset(o);
        const auto section = log.finish();
        std::printf("gpuchrono::mpi: rank %d of %d, offset to rank %d: %lld ns +- %lld ns\n", section.identity.rank,
                    section.identity.world_size, o.reference_rank, static_cast<long long>(o.offset_ns), static_cast<long long>(o.error_ns));
        if (o.offset_ns != 0 || o.error_ns != 0 || section.reference_offsets.size() != 1) ++failures;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gpuchrono::mpi consumer: %s\n", e.what());
        ++failures;
    }
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
