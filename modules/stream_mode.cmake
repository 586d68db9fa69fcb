# Stream-mode KernelPolicy: attribution by marks on the timed stream, without launch callbacks (issue 27).
target_sources(gpuchrono
  PUBLIC FILE_SET HEADERS BASE_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include FILES
    include/gpuchrono/stream_mode/stream_bounds.hpp
  PRIVATE
    src/stream_mode/stream_bounds.cpp
    src/stream_mode/stream_marker.cu)
