// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// did-not-converge: measure() stopped sampling at its budget before the confidence interval of the median was as
// narrow as asked. measure() observes the stopping rule's decision; this decides and words the finding.
#pragma once

#include <gpuchrono/core/finding.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace gpuchrono {

// How measure()'s sampling of one series ended.
struct SamplingEnd {
    std::string name;          // the series'
    bool converged = false;    // the interval reached the confidence and the target width
    std::string reason;        // the stopping rule's reason: "max-samples", "max-time"
    std::string budget;        // the budget that ran out, as a person reads it: "2 s", "1000 samples"
    double confidence = 0.95;  // of the interval
    double relative_width = 0.0;         // the interval's width over the median at the end
    double target_relative_width = 0.0;  // the width asked for
    std::size_t samples = 0;   // the samples kept
};

// The finding when the sampling ended without converging; nothing when it converged.
std::optional<Finding> check_convergence(const SamplingEnd& end);

}  // namespace gpuchrono
