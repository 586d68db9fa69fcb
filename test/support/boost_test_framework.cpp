// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// Boost.Test's framework, compiled once for every test program (target gpuchrono_boost_test): the "included"
// variant, because Debian's static Boost.Test library carries its own main(), which would clash with
// test_main.cpp's, and the binaries must run on the GPU machine, which has no Boost installed. Compiled into each
// program's own main TU, it cost 19-25 s of compile time per program, seven programs in every build.
#define BOOST_TEST_MODULE gpuchrono
#define BOOST_TEST_NO_MAIN
#include <boost/test/included/unit_test.hpp>
