// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Records what reaches the finding sink for the life of the object, then restores the default sink and
// forgets what was reported, so every test starts from nothing reported.
#pragma once

#include <gpuchrono/core/finding.hpp>
#include <gpuchrono/core/finding_reaction.hpp>

#include <vector>

struct RecordingSink {
    std::vector<gpuchrono::Finding> got;
    RecordingSink() {
        gpuchrono::forget_reported_findings();
        gpuchrono::set_finding_sink([this](const gpuchrono::Finding& f) { got.push_back(f); });
    }
    ~RecordingSink() {
        gpuchrono::set_finding_sink({});
        gpuchrono::forget_reported_findings();
    }
    RecordingSink(const RecordingSink&) = delete;
    RecordingSink& operator=(const RecordingSink&) = delete;
};
