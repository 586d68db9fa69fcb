# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# One case of the consumer matrix (CMakeLists.txt beside this): configure a consumer project with the given CMake,
# generator and arguments, build it, run what it built; or, with EXPECT, check that configuring stops with a
# message containing every EXPECT text. Arguments (-D): NAME, CMAKE, SOURCE, BUILD, GENERATOR, ARGS (a list, ';'
# escaped as '|'), RUN (programs to run, '|'-separated), EXPECT ('|'-separated), MAKE_DIR + MAKE_ARGS (a plain
# Makefile instead of CMake).
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" runs "${RUN}")
string(REPLACE "|" ";" expects "${EXPECT}")
file(REMOVE_RECURSE "${BUILD}")
file(MAKE_DIRECTORY "${BUILD}")

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(JOIN " " cmd ${ARGN})
    message(FATAL_ERROR "consumer ${NAME}: ${what} failed (${rc}): ${cmd}\n${out}${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

if(MAKE_DIR)
  string(REPLACE "|" ";" make_args "${MAKE_ARGS}")
  file(COPY "${MAKE_DIR}/" DESTINATION "${BUILD}/pkgconfig")
  file(COPY "${MAKE_DIR}/../headers" "${MAKE_DIR}/../common" DESTINATION "${BUILD}")
  step("make" make -C "${BUILD}/pkgconfig" ${make_args})
  foreach(program IN LISTS runs)
    step("running ${program}" "${BUILD}/pkgconfig/${program}")
    message(STATUS "${step_output}")
  endforeach()
  return()
endif()

execute_process(COMMAND "${CMAKE}" -S "${SOURCE}" -B "${BUILD}" -G "${GENERATOR}" ${args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(expects)
  # CMake wraps a message at about 80 columns: the texts are looked for with every run of white space as one space.
  string(REGEX REPLACE "[ \t\r\n]+" " " said "${out}${err}")
  foreach(text IN LISTS expects)
    string(FIND "${said}" "${text}" at)
    if(rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "consumer ${NAME}: configuring should stop with a message naming `${text}`; it gave (${rc}):\n${out}${err}")
    endif()
  endforeach()
  message(STATUS "consumer ${NAME}: refused as expected:\n${err}")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer ${NAME}: configure failed (${rc}):\n${out}${err}")
endif()
step("build" "${CMAKE}" --build "${BUILD}" --parallel 2)
foreach(program IN LISTS runs)
  step("running ${program}" "${BUILD}/${program}")
  message(STATUS "${step_output}")
endforeach()
