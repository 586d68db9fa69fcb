# Stream-mode KernelPolicy: attribution by marks on the timed stream, without launch callbacks (issue 27). Its
# header (include/gpuchrono/stream_mode/) is installed with the others.
target_sources(gpuchrono PRIVATE
  src/stream_mode/stream_bounds.cpp
  src/stream_mode/stream_marker.cu)
