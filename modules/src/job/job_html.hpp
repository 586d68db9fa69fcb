// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// gpuchrono merge --html: a merged job as one self-contained page (html_page.hpp's look): the job,
// its clock and alignment bound in the header; a summary naming each scope's straggler; the per-rank table
// (host, pid, clock offset, drift, alignment error, scopes, activities, overlap); per scope name the ranks'
// times last and total lateness over the lateness heat map (inlined); the NCCL wait/transfer split; the text
// rendering folded.
#pragma once

#include <gpuchrono/job/job_merge.hpp>

#include <string>

namespace gpuchrono::distributed {

std::string render_job_html(const MergedJob& job, const std::string& command = {});

}  // namespace gpuchrono::distributed
