# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# ctest entry "distributed.mpi_straggler": 4 MPI ranks on CPUs (mpi_straggler_run.cpp checks the merge of the
# rank reports itself), then the command line merges the same files, which must name rank 2 in job.json.
# Arguments (-D): MPIEXEC, RUN, REPORT_TOOL, OUT.
file(REMOVE_RECURSE ${OUT})
set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 4 ${RUN} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "distributed.mpi_straggler: the MPI run failed (${rc})")
endif()
file(GLOB ranks ${OUT}/rank-*.json)
execute_process(COMMAND ${REPORT_TOOL} merge ${ranks} -o ${OUT}/job.json --trace ${OUT}/trace.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "distributed.mpi_straggler: gpuchrono-report merge failed (${rc})")
endif()
file(READ ${OUT}/job.json job)
string(JSON last GET "${job}" stragglers 0 steps 3 last_rank)
if(NOT last EQUAL 2)
  message(FATAL_ERROR "distributed.mpi_straggler: job.json names rank ${last} last on step 3, not rank 2")
endif()
file(READ ${OUT}/trace.json trace)
string(JSON events LENGTH "${trace}" traceEvents)
message(STATUS "distributed.mpi_straggler: job.json names rank 2 last on step 3; trace.json has ${events} events")
