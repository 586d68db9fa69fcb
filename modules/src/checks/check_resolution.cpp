// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include <gpuchrono/checks/check_resolution.hpp>
#include <gpuchrono/core/finding_catalog.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace gpuchrono {

std::optional<Finding> check_event_floor(Duration interval, Duration floor) {
    if (!(floor.ns() > 0) || !floor.is_finite() || !interval.is_finite()) return std::nullopt;
    if (interval.ns() >= event_floor_factor * floor.ns()) return std::nullopt;
    const double share = interval.ns() > 0 ? std::min(floor / interval, 1.0) : 1.0;
    return make_finding(codes::interval_below_event_floor,
                        "the event interval " + to_string(interval) + " is less than " +
                            std::to_string(static_cast<int>(event_floor_factor)) + "x the " + to_string(floor) +
                            " an empty event pair reads on this device: the timer's own floor is up to " +
                            std::to_string(static_cast<int>(std::lround(share * 100))) + "% of it",
                        {{"interval_ns", interval.ns()}, {"floor_ns", floor.ns()}});
}

}  // namespace gpuchrono
