// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The history in other tools' formats (`gpuchrono history export`): CSV, every run of every series, for a
// spreadsheet or a script; Bencher's Metric Format (BMF JSON), one commit's runs, for `bencher run --adapter json`;
// asv's results file and pytest-benchmark's JSON, one commit's runs, for those tools' comparisons.
#pragma once

#include "history/store.hpp"

#include <string>

namespace gpuchrono::history {

// RFC 4180, one row per stored point, oldest commit first:
// experiment,series,unit,commit,position,run_time,median,ci_low,ci_high,n,method,cache_state,findings,machine
// (absent figures as empty fields; machine: the fingerprint's baseline key).
std::string export_csv(Store& store);

// BMF: {"EXPERIMENT/NAME": {"latency": {"value": MEDIAN, "lower_value": CI_LOW, "upper_value": CI_HIGH}}} for the
// runs of `commit` (a hash or its prefix; empty: the newest commit), the last run of a series when it has several.
// Throws HistoryError when the history has no such commit.
std::string export_bmf(Store& store, const std::string& commit = {});

// asv's results file (version 2) of one commit's runs, for asv's own tools and for `history add` of another
// history: each series as "EXPERIMENT.NAME" without parameters, times in seconds (other units as stored), the
// run's CI (gpuchrono's 95%, not asv's 99%) in the stats_ci_99 columns, n in stats_repeat and the samples kept.
std::string export_asv(Store& store, const std::string& commit = {});

// pytest-benchmark's JSON (--benchmark-json's shape) of one commit's runs: group = experiment, name = series,
// stats.median and rounds, and min, max, mean, stddev and data where the run kept its samples; times in seconds,
// the unit and method in extra_info.
std::string export_pytest_benchmark(Store& store, const std::string& commit = {});

}  // namespace gpuchrono::history
