// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Offsets between the ranks' steady clocks by ping-pong over MPI (built only when CMake finds MPI: target
// gpuchrono_mpi). Each rank in turn exchanges `rounds` messages with the reference rank: it sends its time t1,
// the reference answers with its time tr, the answer arrives at t2; if the two one-way trips took equally
// long, reference = local + (tr - (t1 + t2) / 2), and whatever the trips took, the truth lies within half
// the round trip (t2 - t1) / 2 of it. The exchange with the shortest round trip is kept.
//
// Collective over `comm`: every rank calls it. Call it at the start and the end of a run, so that the merge
// can correct the drift between the clocks as well as their offset.
#pragma once

#include <gpuchrono/distributed/clock_anchor.hpp>

#include <mpi.h>

namespace gpuchrono::distributed {

ReferenceOffset estimate_offset_to_reference(MPI_Comm comm, int reference_rank = 0, int rounds = 32);

}  // namespace gpuchrono::distributed
