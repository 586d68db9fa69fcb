# gpu-idle-before (issue 27 item 4): how long a device ran none of the process's work before a KernelPolicy scope's
# first activity, and the finding. Headers in include/gpuchrono/idle_gap/, installed with the others.
target_sources(gpuchrono PRIVATE
  src/idle_gap/idle_gap.cpp
  src/idle_gap/idle_gap_finding.cpp)
