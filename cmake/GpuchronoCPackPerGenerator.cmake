# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): where each package puts the install tree.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()
