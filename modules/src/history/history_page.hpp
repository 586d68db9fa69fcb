// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history as one HTML page (`gpuchrono history page OUT/`): per series a trend of its medians with each run's
// CI as a band, the change points marked (slower red, faster green, a new machine grey), and a table of the
// changes with their commits, linked when a commit URL is given. Self-contained (pictures inlined), readable at
// phone width, like the report pages.
#pragma once

#include "history/store.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace gpuchrono::history {

struct PageOptions {
    // A commit's address, "{hash}" replaced by its hash (https://github.com/OWNER/REPO/commit/{hash}); empty: none.
    std::string commit_url;
    // The newest runs of each series drawn (a chart of thousands of runs shows no more); 0: every run.
    std::size_t newest_runs = 500;
};

// Writes OUT/index.html (creating OUT) and returns its path. Throws HistoryError when it cannot be written.
std::filesystem::path write_history_page(Store& store, const std::filesystem::path& out, const PageOptions& options = {});

}  // namespace gpuchrono::history
