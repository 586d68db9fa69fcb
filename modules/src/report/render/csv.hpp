// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The report as CSV tables for spreadsheets (RFC 4180: comma separated, CRLF-free "\n" lines, fields with a
// comma, quote or line break quoted, quotes doubled). One table per kind of record, each in long form with
// the experiment and series names in every row, so a pivot table or a filter works without joins.
//
//   samples   experiment,series,policy,index,duration_ns                   every raw sample of every series
//   stats     experiment,series,policy,count,failed,min_ns,...,cv,findings one row per series
//   blocks    experiment,timeline,block,region,region_name,sm_start,sm_stop,start_ns,stop_ns,duration_ns,
//             cycles,count,accumulated_ns,net_ns                           every per-block record
//   sweeps    experiment,sweep,curve,x,y,low,high,y_unit                   every sweep point
//   metrics   experiment,name,value,unit,note                              every result figure
// NaN is written as an empty field.
#pragma once

#include <gpuchrono/report/model/report.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace gpuchrono::report {

enum class CsvTable { samples, stats, blocks, sweeps, metrics };

// "samples", "stats", ...: also the file names write_report_files uses (samples.csv, ...).
const char* to_string(CsvTable table) noexcept;

inline constexpr CsvTable all_csv_tables[] = {CsvTable::samples, CsvTable::stats, CsvTable::blocks, CsvTable::sweeps,
                                              CsvTable::metrics};

// The table with its header row.
std::string render_csv(const Report& report, CsvTable table);

// One field, quoted if it needs to be; ill-formed UTF-8 becomes U+FFFD.
std::string csv_field(std::string_view text);

}  // namespace gpuchrono::report
