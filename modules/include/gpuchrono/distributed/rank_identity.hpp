// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Which process of a distributed job a report came from: host, pid, rank, local rank, world size and job id,
// read from the launcher's environment so that a program needs no configuration to say it. Launchers
// recognised, first match wins (each sets all three of rank, local rank and world size, or some of them):
//   OpenMPI   OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_LOCAL_RANK, OMPI_COMM_WORLD_SIZE   (job: OMPI_MCA_orte_jobid
//             or PMIX_NAMESPACE)
//   Slurm     SLURM_PROCID, SLURM_LOCALID, SLURM_NTASKS                                  (job: SLURM_JOB_ID[.STEP])
//   MPICH/PMI PMI_RANK, MPI_LOCALRANKID, PMI_SIZE                                         (job: PMI_KVSNAME)
//   torchrun  RANK, LOCAL_RANK, WORLD_SIZE                                                (job: TORCHELASTIC_RUN_ID)
// GPUCHRONO_JOB_ID, when set, names the job whatever the launcher. Values that are not integers, negative
// ranks, or a rank not below the world size are refused with IdentityError naming the variable: a report
// filed under the wrong rank would make a merge lie.
#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace gpuchrono::distributed {

class IdentityError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RankIdentity {
    std::string host;
    long pid = 0;
    int rank = 0;
    int local_rank = 0;
    int world_size = 1;
    std::string job_id;    // empty when the launcher names none: a merge then checks world size and hosts only
    std::string launcher;  // "openmpi", "slurm", "pmi", "torchrun", "manual", or "none" (a single process)

    friend bool operator==(const RankIdentity&, const RankIdentity&) = default;
};

// Throws IdentityError when the identity cannot be true: rank outside [0, world_size), local rank negative or
// not below world size, world size < 1.
void validate(const RankIdentity& id);

// Reads the identity through `getenv` (std::getenv by default; tests pass a map lookup). Host and pid are this
// process's. Throws IdentityError naming the variable when a value is not a decimal integer or out of range.
using Environment = std::function<std::optional<std::string>(const std::string&)>;
RankIdentity identity_from_environment(const Environment& getenv);
RankIdentity identity_from_environment();

// "rank 3/8 (local 1) on node7, pid 1234, job 5521 (slurm)"
std::string describe(const RankIdentity& id);

}  // namespace gpuchrono::distributed
