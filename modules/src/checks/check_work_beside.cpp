// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "checks/check_work_beside.hpp"

#include <gpuchrono/core/duration.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <string>
#include <vector>

namespace gpuchrono {

std::optional<Finding> check_work_beside(const cupti::WorkBeside& beside, int sm_count) {
    const std::vector<cupti::Overlap>& overlaps = beside.overlaps;
    if (overlaps.empty()) return std::nullopt;
    std::string list;
    for (std::size_t i = 0; i < overlaps.size() && i < 4; ++i)
        list += (i ? ", " : "") + overlaps[i].name + " (stream " + std::to_string(overlaps[i].stream) + ", " +
                to_string(Duration::from_ns(static_cast<double>(overlaps[i].overlap_ns))) + " overlap)";
    if (overlaps.size() > 4) list += " and " + std::to_string(overlaps.size() - 4) + " more";
    // The number that matters first: work beside the scope's lengthens its reading by at most the time both ran.
    const std::string how_long = "work of other streams ran beside the scope's for " +
                                 to_string(Duration::from_ns(static_cast<double>(beside.overlapped_ns))) + " of its " +
                                 to_string(Duration::from_ns(static_cast<double>(beside.busy_ns)));
    const std::vector<Evidence> evidence = {{"overlapping_activities", static_cast<double>(overlaps.size())},
                                            {"largest_overlap_ns", static_cast<double>(overlaps.front().overlap_ns)},
                                            {"overlapped_ns", static_cast<double>(beside.overlapped_ns)},
                                            {"busy_ns", static_cast<double>(beside.busy_ns)},
                                            {"sm_count", static_cast<double>(sm_count)}};
    if (beside.stretches())
        return make_finding(codes::concurrent_work_overlapped,
                            how_long + ", sharing the SMs or memory of its wide work (more blocks than SMs together, "
                                       "kernels on more than an eighth of the SMs, or a copy): the reading may be up "
                                       "to that much longer than the work alone: " + list,
                            evidence);
    // Kernels whose blocks all had SMs of their own left readings within about 1 us on an H100; an overlap under
    // the floor cannot lengthen a reading by more than itself; a narrow kernel on a shared SM is slowed or not by
    // what it does there.
    const std::string why = beside.fits ? "their blocks and the scope's fitting on separate SMs (" +
                                              std::to_string(sm_count) + "), theirs on at most an eighth, with no copy"
                            : beside.may_stretch()
                                ? "sharing SMs with the scope's narrow kernels (on at most an eighth of the SMs), which "
                                  "a kernel that waits does not feel and one that computes does: the records cannot "
                                  "say which"
                                : "too briefly to lengthen the reading by more than that";
    return make_finding(codes::concurrent_work_beside, how_long + ", " + why + ": " + list, evidence);
}

}  // namespace gpuchrono
