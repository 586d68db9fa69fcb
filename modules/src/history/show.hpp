// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// One series of the history as text: a sparkline of its medians (oldest left) and a table, one run a row, with
// its CI, n, the machine's fingerprint where it changed, and the change points marked.
#pragma once

#include "history/change_detection.hpp"
#include "history/store.hpp"

#include <string>
#include <vector>

namespace gpuchrono::history {

// "▁▂▄█" for the values, lowest to highest of them (all equal: all "▄").
std::string sparkline(const std::vector<double>& values);

std::string render_series(const StoredSeries& series, const std::vector<StoredPoint>& points,
                          const std::vector<ChangePoint>& changes);

}  // namespace gpuchrono::history
