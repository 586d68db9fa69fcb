# ctest entry "package.consumer": install gpuchrono into a staging prefix, then configure, build and run the
# consumer project against it with the same compilers. Arguments (-D): BUILD_DIR, SOURCE_DIR, WORK_DIR,
# CXX, CUDA, CUDA_HOST, CUDA_ARCHS, MAKE_PROGRAM.
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
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G Ninja
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${stage}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_CUDA_COMPILER=${CUDA} -DCMAKE_CUDA_HOST_COMPILER=${CUDA_HOST}
    "-DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
