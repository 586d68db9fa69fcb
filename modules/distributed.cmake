# Distributed jobs (issue 24): which rank wrote a report, its clock anchors and named scopes, and the merge of
# N rank reports into one timeline with the straggler analysis (docs/distributed.md).
# Headers: include/gpuchrono/distributed/, installed with the others.
target_sources(gpuchrono PRIVATE
    src/distributed/rank_identity.cpp
    src/distributed/device_identity.cpp
    src/distributed/clock_anchor.cpp
    src/distributed/scope_log.cpp
    src/distributed/report_section.cpp
    src/distributed/rank_section_json.cpp
    src/distributed/clock_alignment.cpp
    src/distributed/straggler_analysis.cpp
    src/distributed/collective_bandwidth.cpp
    src/distributed/job_html.cpp
    src/distributed/job_merge.cpp
    src/distributed/job_json.cpp
    src/distributed/straggler_text.cpp
    src/distributed/lateness_svg.cpp
    src/report/device_busy_text.cpp)

# The ping-pong offset estimator needs MPI; it is a library of its own so that gpuchrono never does. Built when
# CMake finds MPI, and then installed with its header and exported as gpuchrono::mpi, which a consumer asks for
# with find_package(gpuchrono COMPONENTS mpi) (cmake/gpuchrono-config.cmake.in finds MPI for it). Without MPI
# neither the library nor its header is installed (modules/CMakeLists.txt leaves the header out of the
# directory install), so an installed header always has its library.
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  add_library(gpuchrono_mpi STATIC src/distributed/mpi_clock_offsets.cpp)
  add_library(gpuchrono::mpi ALIAS gpuchrono_mpi)
  set_target_properties(gpuchrono_mpi PROPERTIES EXPORT_NAME mpi)
  target_link_libraries(gpuchrono_mpi PUBLIC gpuchrono MPI::MPI_CXX)
  # Only the C API is used: the deprecated C++ bindings would warn in every includer.
  target_compile_definitions(gpuchrono_mpi PUBLIC OMPI_SKIP_MPICXX=1 MPICH_SKIP_MPICXX=1)
  target_compile_options(gpuchrono_mpi PRIVATE -Wall -Wextra -Wpedantic)
  if(GPUCHRONO_INSTALL)
    install(TARGETS gpuchrono_mpi EXPORT gpuchrono-mpi-targets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
    install(FILES include/gpuchrono/distributed/mpi_clock_offsets.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpuchrono/distributed)
  endif()
endif()
