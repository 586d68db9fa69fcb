// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Saved report JSON (docs/report-json.md): gpuchrono-report reads files written on another machine, by another
// version, or by hand. Any text must either load or be refused with an exception that says what was wrong;
// what loads must render in every format (text, CSV, SVG timelines and sweeps, Chrome trace), and must survive
// being written and read again unchanged.
#include "report/render/chrome_trace.hpp"
#include "report/render/csv.hpp"
#include <gpuchrono/report/model/report.hpp>
#include <gpuchrono/report/json/report_json.hpp>
#include "report/render/sweep_svg.hpp"
#include <gpuchrono/report/render/text_report.hpp>
#include "report/render/timeline_svg.hpp"

#include "fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using namespace gpuchrono::report;

// The loader's text entry point: what load_report does after reading the file.
Report from_text(std::string_view text) { return report_from_json(text); }

std::string to_text(const Report& r) { return to_json(r); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);  // exact size: ASan sees an overread
    std::optional<Report> report;
    try {
        report = from_text(text);
    } catch (const ReportError& e) {  // the one documented refusal: not JSON, or not a report, saying where
        GPUCHRONO_FUZZ_EXPECT(*e.what() != '\0');
        return 0;
    }  // anything else escaping (nlohmann's own exceptions, std::out_of_range, ...) is a crash here
    const Report& r = *report;
    (void)render_text(r);
    (void)render_summary_text(r);
    for (CsvTable table : all_csv_tables) (void)render_csv(r, table);
    for (const Experiment& e : r.experiments) {
        for (const Timeline& t : e.timelines) (void)render_timeline_svg(t);
        for (const Sweep& s : e.sweeps) (void)render_sweep_svg(s);
    }
    (void)render_chrome_trace(r);

    // Written and read back, the report is the same report.
    const std::string saved = to_text(r);
    std::optional<Report> again;
    try {
        again = from_text(saved);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: a loaded report, saved, does not load again: %s\n", e.what());
        gpuchrono::fuzz::broken("round trip");
    }
    GPUCHRONO_FUZZ_EXPECT(to_text(*again) == saved);
    return 0;
}
