// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "checks/check_convergence.hpp"

#include <gpuchrono/core/finding_catalog.hpp>
#include <gpuchrono/stats/stats.hpp>

namespace gpuchrono {

std::optional<Finding> check_convergence(const SamplingEnd& end) {
    if (end.converged) return std::nullopt;
    return make_finding(codes::did_not_converge,
                        "measure(\"" + end.name + "\") stopped at " + end.reason + " (" + end.budget + ") with the " +
                            detail::percent(end.confidence) + " CI of the median " +
                            detail::percent(end.relative_width) + " wide, above the " +
                            detail::percent(end.target_relative_width) + " target, after " + std::to_string(end.samples) +
                            " samples",
                        {{"relative_width", end.relative_width},
                         {"target_relative_width", end.target_relative_width},
                         {"samples", static_cast<double>(end.samples)}});
}

}  // namespace gpuchrono
