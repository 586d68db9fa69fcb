# Issue 23: hardware metrics (CUPTI profiling). The name catalogue is device-free.
target_sources(gpuchrono
  PUBLIC FILE_SET HEADERS BASE_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include FILES
    ${CMAKE_CURRENT_SOURCE_DIR}/include/gpuchrono/metrics/metric_catalogue.hpp
    ${CMAKE_CURRENT_SOURCE_DIR}/include/gpuchrono/metrics/roofline_math.hpp
  PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/metric_catalogue.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/metrics/roofline_math.cpp)
