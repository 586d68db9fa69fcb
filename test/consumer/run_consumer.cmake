# ctest entry "package.consumer": install gpuchrono into a staging prefix, then, with the same compilers:
#   - the installed bin/gpuchrono-report renders the saved test/data/report-v1.json;
#   - find_package stops with its message for a project without a Ninja generator or extensions OFF;
#   - the consumer project builds and runs; the README's own project (readme/, whose files README.md must
#     show verbatim) builds.
# Arguments (-D): BUILD_DIR, SOURCE_DIR, WORK_DIR, CXX, CUDA, CUDA_HOST, CUDA_ARCHS, MAKE_PROGRAM, README.
set(stage ${WORK_DIR}/stage)
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "package.consumer: `${cmd}` failed (${rc})")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${stage})

# The renderer is installed and works from the prefix.
if(NOT EXISTS ${stage}/bin/gpuchrono-report)
  message(FATAL_ERROR "package.consumer: the install has no bin/gpuchrono-report")
endif()
run(${stage}/bin/gpuchrono-report ${SOURCE_DIR}/../data/report-v1.json --out ${WORK_DIR}/rendered --quiet)
if(NOT EXISTS ${WORK_DIR}/rendered/report.txt OR NOT EXISTS ${WORK_DIR}/rendered/report.json)
  message(FATAL_ERROR "package.consumer: bin/gpuchrono-report wrote no report.txt/report.json into ${WORK_DIR}/rendered")
endif()

# A misconfigured project is stopped at configure time with one message saying what to set.
function(expect_refused label expected)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/misconfigured -B ${WORK_DIR}/misconfigured-${label}
                          -DCMAKE_PREFIX_PATH=${stage} -DCMAKE_CXX_COMPILER=${CXX} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${out}${err}" "${expected}" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "package.consumer: configuring a project ${label} should stop with a message naming "
                        "`${expected}`; it gave (${rc}):\n${out}${err}")
  endif()
endfunction()
expect_refused(with-extensions "set(CMAKE_CXX_EXTENSIONS OFF) before find_package(gpuchrono)"
               -G Ninja -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
find_program(unix_make NAMES make gmake)
if(unix_make)
  expect_refused(with-makefiles "configure with -G Ninja" -G "Unix Makefiles" -DCMAKE_CXX_EXTENSIONS=OFF)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${stage}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CUDA_COMPILER=${CUDA} -DCMAKE_CUDA_HOST_COMPILER=${CUDA_HOST}
    "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)

# The README's project, exactly as README.md shows it (its files appear there verbatim), builds.
file(READ ${README} readme)
foreach(shown CMakeLists.txt host.cpp kernels.cu)
  file(READ ${SOURCE_DIR}/readme/${shown} text)
  string(FIND "${readme}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "package.consumer: README.md does not show test/consumer/readme/${shown} verbatim")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/readme -B ${WORK_DIR}/readme -G Ninja
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${stage}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CUDA_COMPILER=${CUDA} -DCMAKE_CUDA_HOST_COMPILER=${CUDA_HOST}
    "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/readme)
