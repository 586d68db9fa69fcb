// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#include "report/render/device_busy_text.hpp"

#include "report/render/text_table.hpp"
#include <gpuchrono/report/render/units.hpp>

namespace gpuchrono::report {

std::string render_device_busy_text(const Experiment& e, const std::string& indent) {
    TextTable t;
    t.column("series", TextTable::Align::left).column("device").column("busy").column("span").column("busy/span")
        .column("activities");
    for (const SampleSeries& s : e.series)
        for (const DeviceBusy& b : s.device_busy) {
            const std::string share =
                b.span_ns > 0 ? format_fixed(100.0 * static_cast<double>(b.busy_ns) / static_cast<double>(b.span_ns), 1) + "%"
                              : std::string("-");
            t.row({s.name, std::to_string(b.device), to_string(Duration::from_ns(static_cast<double>(b.busy_ns))),
                   to_string(Duration::from_ns(static_cast<double>(b.span_ns))), share, std::to_string(b.activities)});
        }
    return t.rows() == 0 ? std::string() : t.render(indent);
}

}  // namespace gpuchrono::report
