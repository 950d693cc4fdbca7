# Run by CPack before it builds a package (CPACK_PRE_BUILD_SCRIPTS): a package that
# lacks a tool or a file stops here, naming the Debian package to install, instead of
# failing inside CPack or shipping without its man page.
set(missing "")
if(NOT CPACK_MUSATOP_MAN_PAGE_BUILT)
  # scdoc may have been installed after the build directory was configured.
  string(APPEND missing "  the man page: apt-get install scdoc, then configure again (cmake ${CPACK_MUSATOP_BINARY_DIR})\n")
endif()
if(CPACK_GENERATOR STREQUAL "DEB")
  find_program(file_tool file)
  find_program(shlibdeps_tool dpkg-shlibdeps)
  if(NOT file_tool)
    string(APPEND missing "  the file utility: apt-get install file\n")
  endif()
  if(NOT shlibdeps_tool)
    string(APPEND missing "  dpkg-shlibdeps: apt-get install dpkg-dev\n")
  endif()
endif()
if(CPACK_GENERATOR STREQUAL "RPM")
  find_program(rpmbuild_tool rpmbuild)
  if(NOT rpmbuild_tool)
    string(APPEND missing "  rpmbuild: apt-get install rpm\n")
  endif()
endif()
if(missing)
  message(FATAL_ERROR "musatop: the package cannot be built complete; missing:\n${missing}"
                      "(bash scripts/quickstart package installs all of it and builds the package)")
endif()
