// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Whether a timer's call site is asked about for the first time in the process: the first scope at a line is the
// one whose launches may be the first of their kernels, which under lazy module loading load their module on the
// host inside the scope (the cold first scope checks of EventPolicy and HostSyncPolicy).
#pragma once

#include <gpuchrono/core/finding_reaction.hpp>

namespace gpuchrono::detail {

// True the first time `site` is passed, false after (and for a site with neither a source location nor a return
// address). A site is its source location (the file name's pointer, which one translation unit's literal keeps)
// or, without one, the caller's return address. Asked once per scope, a loop of eager scopes at one line is
// answered from the thread's latest site without a lock or an allocation.
bool first_scope_at(const CallSite& site);

}  // namespace gpuchrono::detail
