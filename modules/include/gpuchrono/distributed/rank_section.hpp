// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The part of a report that makes it one rank of a job: who wrote it (RankIdentity), on which GPUs
// (DeviceIdentity), its clock anchors, and the named scopes it went through with their start and end on the
// host's steady clock. report.json carries it as the member "distributed" (docs/report-json.md); a merge
// (job_merge.hpp) reads N of them.
#pragma once

#include <gpuchrono/distributed/clock_anchor.hpp>
#include <gpuchrono/distributed/device_identity.hpp>
#include <gpuchrono/distributed/rank_identity.hpp>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace gpuchrono::distributed {

// One pass through a named scope ("step", "allreduce"), on this process's steady clock. bytes: what a
// collective scope moved (0: not declared), for collective_bandwidth.hpp.
struct ScopeEvent {
    std::string name;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    int device = -1;  // -1: host work
    std::uint64_t bytes = 0;

    friend bool operator==(const ScopeEvent&, const ScopeEvent&) = default;
};

struct RankSection {
    RankIdentity identity;
    std::vector<DeviceIdentity> devices;          // every device this rank measured on
    std::vector<ClockAnchor> anchors;             // at least start and end: take_clock_anchor()
    std::vector<ReferenceOffset> reference_offsets;  // offsets to the reference rank's steady clock, if measured
    std::vector<ScopeEvent> scopes;

    friend bool operator==(const RankSection&, const RankSection&) = default;
};

// Whether the section identifies device `index` (has its UUID and PCI bus id).
bool names_device(const RankSection& section, int index) noexcept;

// The section a process starts with: `identity` validated (IdentityError), a start anchor taken (with CUPTI's
// clock when with_cupti and CUPTI loads). ScopeLog and report::new_report() both begin with it.
RankSection start_rank_section(RankIdentity identity, bool with_cupti);

// Records named scopes of one process (thread-safe). Typical use:
//
//     gpuchrono::distributed::ScopeLog log;           // identity from the launcher, start anchor taken
//     for (...) { auto s = log.scope("step"); ScopedTimer<KernelPolicy> t(stream); ... }
//     report.distributed = log.finish();              // end anchor taken
class ScopeLog {
public:
    // Identity from the environment (identity_from_environment; throws IdentityError on bad values).
    // with_cupti: also anchor CUPTI's clock (KernelPolicy's activities), when CUPTI loads.
    explicit ScopeLog(bool with_cupti = false);
    ScopeLog(RankIdentity identity, bool with_cupti);

    class Scope {
    public:
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
        ~Scope();
        void set_bytes(std::uint64_t bytes) noexcept { event_.bytes = bytes; }

    private:
        friend class ScopeLog;
        Scope(ScopeLog& log, std::string name, int device, std::uint64_t bytes);
        ScopeLog& log_;
        ScopeEvent event_;
    };

    // Starts a scope that ends when the returned object is destroyed. device: where its work runs (-1 host);
    // its identity is added to the section the first time.
    [[nodiscard]] Scope scope(std::string name, int device = -1, std::uint64_t bytes = 0);

    // Adds device `index`'s identity (UUID, PCI bus id) to the section unless it is there: scope(name, device)
    // does it for the scopes' devices; call it for any other device the rank's measurements ran on.
    void add_device(int index);

    // Adds an estimate of the offset to the reference rank (e.g. from estimate_offset_to_reference()).
    void add_reference_offset(const ReferenceOffset& offset);

    // Takes the end anchor and returns the section. The log can go on recording; a later finish() adds
    // another end anchor.
    RankSection finish();

    const RankIdentity& identity() const noexcept { return section_.identity; }

private:
    void record(ScopeEvent event);
    std::mutex mutex_;
    RankSection section_;
    bool with_cupti_ = false;
};

// Now on the steady clock, in ns (what ScopeEvent and ClockAnchor::steady_ns hold).
std::int64_t steady_now_ns() noexcept;

}  // namespace gpuchrono::distributed
