# README.md must show the files of readme/ verbatim, so the program a reader copies is the one CI builds.
file(READ ${README} readme)
foreach(shown CMakeLists.txt host.cpp kernels.cu)
  file(READ ${DIR}/${shown} text)
  string(FIND "${readme}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "README.md does not show test/consumers/readme/${shown} verbatim")
  endif()
endforeach()
