// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/distributed/rank_identity.hpp>

#include <unistd.h>

#include <array>
#include <charconv>
#include <climits>
#include <cstdlib>

namespace gpuchrono::distributed {

namespace {

struct LauncherVariables {
    const char* launcher;
    const char* rank;
    const char* local_rank;
    const char* world_size;
    std::array<const char*, 2> job;  // the first that is set names the job
};

// Order matters: mpirun inside a Slurm allocation sets both OMPI_* and SLURM_* and the OMPI_* ones describe
// the MPI job; torchrun's RANK is so generic a name that it comes last.
constexpr std::array<LauncherVariables, 4> launchers{{
    {"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_SIZE", {"OMPI_MCA_orte_jobid", "PMIX_NAMESPACE"}},
    {"slurm", "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NTASKS", {"SLURM_JOB_ID", nullptr}},
    {"pmi", "PMI_RANK", "MPI_LOCALRANKID", "PMI_SIZE", {"PMI_KVSNAME", nullptr}},
    {"torchrun", "RANK", "LOCAL_RANK", "WORLD_SIZE", {"TORCHELASTIC_RUN_ID", nullptr}},
}};

int parse_int(const std::string& variable, const std::string& value) {
    int out = 0;
    const char* first = value.data();
    const char* last = value.data() + value.size();
    const auto [end, ec] = std::from_chars(first, last, out);
    if (value.empty() || ec != std::errc{} || end != last)
        throw IdentityError("gpuchrono: " + variable + "=\"" + value + "\" is not a decimal integer (" +
                            (ec == std::errc::result_out_of_range ? "too large for an int" : "expected e.g. 0, 3, 16") + ")");
    return out;
}

std::string host_name() {
    char buffer[HOST_NAME_MAX + 1] = {};
    if (gethostname(buffer, sizeof buffer - 1) != 0) return "unknown";
    return buffer;
}

}  // namespace

void validate(const RankIdentity& id) {
    if (id.world_size < 1)
        throw IdentityError("gpuchrono: world size " + std::to_string(id.world_size) + " is not a process count (expected >= 1)");
    if (id.rank < 0 || id.rank >= id.world_size)
        throw IdentityError("gpuchrono: rank " + std::to_string(id.rank) + " is outside 0.." + std::to_string(id.world_size - 1) +
                            " (world size " + std::to_string(id.world_size) + ")");
    if (id.local_rank < 0 || id.local_rank >= id.world_size)
        throw IdentityError("gpuchrono: local rank " + std::to_string(id.local_rank) + " is outside 0.." +
                            std::to_string(id.world_size - 1) + " (world size " + std::to_string(id.world_size) + ")");
}

RankIdentity identity_from_environment(const Environment& getenv) {
    RankIdentity id;
    id.host = host_name();
    id.pid = static_cast<long>(::getpid());
    id.launcher = "none";
    for (const LauncherVariables& l : launchers) {
        const auto rank = getenv(l.rank);
        const auto size = getenv(l.world_size);
        if (!rank && !size) continue;
        if (!rank || !size)
            throw IdentityError(std::string("gpuchrono: ") + (rank ? l.rank : l.world_size) + " is set but " +
                                (rank ? l.world_size : l.rank) + " is not: cannot tell this process's rank in the job (" +
                                l.launcher + " launcher)");
        id.launcher = l.launcher;
        id.rank = parse_int(l.rank, *rank);
        id.world_size = parse_int(l.world_size, *size);
        if (const auto local = getenv(l.local_rank)) id.local_rank = parse_int(l.local_rank, *local);
        else id.local_rank = id.rank;  // one node: the launcher did not say, the global rank is the local one
        for (const char* job : l.job)
            if (job)
                if (const auto value = getenv(job); value && !value->empty()) {
                    id.job_id = *value;
                    if (std::string(job) == "SLURM_JOB_ID")
                        if (const auto step = getenv("SLURM_STEP_ID")) id.job_id += "." + *step;
                    break;
                }
        break;
    }
    if (const auto job = getenv("GPUCHRONO_JOB_ID"); job && !job->empty()) id.job_id = *job;
    try {
        validate(id);
    } catch (const IdentityError& e) {
        throw IdentityError(std::string(e.what()) + ", as read from the " + id.launcher + " launcher's environment");
    }
    return id;
}

RankIdentity identity_from_environment() {
    return identity_from_environment([](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        return v ? std::optional<std::string>(v) : std::nullopt;
    });
}

std::string describe(const RankIdentity& id) {
    std::string s = "rank " + std::to_string(id.rank) + "/" + std::to_string(id.world_size) + " (local " +
                    std::to_string(id.local_rank) + ") on " + id.host + ", pid " + std::to_string(id.pid);
    if (!id.job_id.empty()) s += ", job " + id.job_id;
    return s + " (" + id.launcher + ")";
}

}  // namespace gpuchrono::distributed
