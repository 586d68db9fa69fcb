// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Checks that compare two series, for unit tests that pin "the candidate is not slower than the base" or "the
// candidate is faster". They take compare()'s verdict (measure/compare.hpp): a Hodges-Lehmann change with its
// confidence interval and a rank test, against a practical threshold (CompareOptions::threshold, default 1%).
// Never a raw ratio of two medians, which flips with noise.
//
//   check_not_slower  fails only on the verdict "slower": a significant change of at least the threshold. An
//                     inconclusive comparison passes (the message says it was inconclusive), so the check does
//                     not fail by chance: on two series of the same code (A/A) the verdict "slower" comes out at
//                     most (1 - confidence) / 2 of the time, 2.5% at the default 95%, and less with the threshold
//                     (docs/testing.md gives the rate measured on an H100).
//   check_faster      passes only on the verdict "faster"; "no difference" and "inconclusive" fail, saying which.
//
// Series that compare() refuses (measured by different methods, cache states or devices, or without a
// successful sample) fail the check with compare()'s reason. Host only.
#pragma once

#include <gpuchrono/core/series.hpp>
#include <gpuchrono/measure/compare.hpp>
#include <gpuchrono/testing/check_result.hpp>

namespace gpuchrono {

// The message names both series, the verdict in words with its figures (change, interval, p), both medians
// and sample counts, and compare()'s notes.
CheckResult check_not_slower(const Series& base, const Series& candidate, const CompareOptions& options = {});
CheckResult check_faster(const Series& base, const Series& candidate, const CompareOptions& options = {});

}  // namespace gpuchrono
