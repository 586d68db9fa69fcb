# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs a program built from the documents that needs a GPU, on whatever machine the matrix runs on: with a usable
# GPU it must succeed; without one it must end as README.md says, exit status 1 and one line on stderr, the
# gpuchrono::CudaError it caught (not an uncaught exception's abort, 134). Arguments (-D): NAME, PROGRAM, EXPECT
# (a text the line must hold).
if(NOT EXISTS "${PROGRAM}")
  message(FATAL_ERROR "consumer ${NAME}: ${PROGRAM} was not built (its build case failed or did not run)")
endif()
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(STATUS "consumer ${NAME}: ran on a GPU and succeeded")
  return()
endif()
string(STRIP "${err}" line)
string(FIND "${line}" "\n" newline)
string(FIND "${line}" "${EXPECT}" at)
if(NOT rc EQUAL 1 OR NOT newline EQUAL -1 OR NOT line MATCHES "^gpuchrono: " OR at EQUAL -1)
  message(FATAL_ERROR "consumer ${NAME}: without a usable GPU the program must exit 1 with one line naming "
                      "`${EXPECT}`; it exited ${rc} with stderr:\n${err}")
endif()
message(STATUS "consumer ${NAME}: no usable GPU here; it said so in one line and exited 1:\n${line}")
