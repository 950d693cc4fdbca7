# Installation beyond the binary (man page, completions, the systemd unit, docs)
# and the Debian package: `cmake --build build --target package`.

# The man page from docs/man/musatop.1.scd (scdoc), compressed as Debian wants it.
find_program(MUSATOP_SCDOC scdoc)
find_program(MUSATOP_GZIP gzip)
if(MUSATOP_SCDOC AND MUSATOP_GZIP)
  set(man_source ${PROJECT_SOURCE_DIR}/docs/man/musatop.1.scd)
  set(man_page ${PROJECT_BINARY_DIR}/man/musatop.1.gz)
  add_custom_command(
    OUTPUT ${man_page}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND sh -c "'${MUSATOP_SCDOC}' < '${man_source}' | '${MUSATOP_GZIP}' -9n > '${man_page}'"
    DEPENDS ${man_source}
    COMMENT "musatop(1) from ${man_source}"
    VERBATIM)
  add_custom_target(man ALL DEPENDS ${man_page})
  install(FILES ${man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(CPACK_MUSATOP_MAN_PAGE_BUILT ON)  # CPack passes CPACK_* on to its scripts
else()
  set(CPACK_MUSATOP_MAN_PAGE_BUILT OFF)
  message(STATUS "scdoc not found: the man page is not built (apt-get install scdoc)")
endif()

install(FILES packaging/completions/musatop.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME musatop)
install(FILES packaging/completions/_musatop DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES packaging/completions/musatop.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
# Installed, not enabled: the unit says how to enable it.
set(MUSATOP_SYSTEMD_UNIT_DIR lib/systemd/system CACHE STRING "Where the musatop-serve unit goes, under the prefix")
# Its ExecStart names the binary where this install puts it (/usr/bin for the
# packages, /usr/local/bin for `cmake --install` and the tarballs): written at
# install time, when the prefix is known.
install(CODE "
  file(READ \"${PROJECT_SOURCE_DIR}/packaging/musatop-serve.service\" unit)
  string(REPLACE \"ExecStart=/usr/bin/musatop\" \"ExecStart=\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/musatop\" unit \"\${unit}\")
  file(WRITE \"${PROJECT_BINARY_DIR}/musatop-serve.service\" \"\${unit}\")")
install(FILES ${PROJECT_BINARY_DIR}/musatop-serve.service DESTINATION ${MUSATOP_SYSTEMD_UNIT_DIR})

# /usr/share/doc/musatop: the README, the changelog and the copyright file.
set(changelog ${PROJECT_BINARY_DIR}/doc/changelog.gz)
add_custom_command(
  OUTPUT ${changelog}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/doc
  COMMAND sh -c "gzip -9n < '${PROJECT_SOURCE_DIR}/packaging/changelog' > '${changelog}'"
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/changelog
  VERBATIM)
add_custom_target(changelog ALL DEPENDS ${changelog})
install(FILES README.md packaging/copyright ${changelog} DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The guides --help and the README point to, beside them: the package is complete
# without the source tree.
install(FILES docs/cluster.md docs/serve.md docs/recording.md docs/health.md docs/differences.md docs/portable.md
              docs/driver.md docs/scripting.md docs/query.md docs/alerts.md docs/gpustat.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# gpustat's name for musatop, outside PATH: an installed gpustat is never taken
# over; put the directory in PATH or link to it to enable it (docs/gpustat.md).
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/gpustat-link)
file(CREATE_LINK ../../../${CMAKE_INSTALL_BINDIR}/musatop ${PROJECT_BINARY_DIR}/gpustat-link/gpustat SYMBOLIC)
install(FILES ${PROJECT_BINARY_DIR}/gpustat-link/gpustat DESTINATION lib/musatop/bin)
# Alert and recording rules for Prometheus, with their promtool tests (docs/alerts.md).
install(FILES packaging/prometheus/musatop-rules.yml packaging/prometheus/musatop-rules.test.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/musatop/prometheus)

# The dynamic build makes the Debian 12 package; the static (portable) build an
# RPM for the RHEL family, Kylin and openEuler, its binary needing nothing.
if(MUSATOP_STATIC)
  set(CPACK_GENERATOR RPM)
else()
  set(CPACK_GENERATOR DEB)
endif()
set(CPACK_PACKAGE_NAME musatop)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "musatop developers <musatop-dev@lists.debian.net>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # musatop_0.3.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS bash-completion)  # the completion it installs needs it
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # run-time libraries from dpkg-shlibdeps
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The unit's life with the package's (debhelper's systemd semantics; nothing is
# installed under /etc, so there are no conffiles).
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/debian/postinst
    ${PROJECT_SOURCE_DIR}/packaging/debian/prerm ${PROJECT_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
    WORLD_READ WORLD_EXECUTE)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "monitor for Moore Threads GPUs and their processes
musatop shows the Moore Threads GPUs of a host: utilisation and memory bars,
temperature, power, five-minute trends, host CPU and memory, and the processes
that use the GPUs with their users, containers, Kubernetes pods, Slurm jobs and
systemd units, with device health findings.
.
It runs as an interactive terminal screen, prints one text or JSON snapshot
for scripts, records and replays, and serves Prometheus metrics and the JSON
snapshot over HTTP (musatop serve, with a systemd unit that is installed but
not enabled). It reads the vendor tool mthreads-gmi, which it does not ship.")

set(CPACK_RPM_FILE_NAME RPM-DEFAULT)  # musatop-0.3.0-1.x86_64.rpm
set(CPACK_RPM_PACKAGE_RELEASE 1)
set(CPACK_RPM_PACKAGE_LICENSE "GPL-3.0-only")
set(CPACK_RPM_PACKAGE_GROUP "Applications/System")
set(CPACK_RPM_PACKAGE_URL "https://github.com/musatop/musatop")
set(CPACK_PACKAGE_VENDOR "musatop developers")
set(CPACK_RPM_PACKAGE_ARCHITECTURE ${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_RPM_PACKAGE_AUTOREQ OFF)  # a static binary: nothing to require
set(CPACK_RPM_SPEC_MORE_DEFINE "%define packager ${CPACK_PACKAGE_CONTACT}")
set(CPACK_RPM_PACKAGE_SUMMARY "Monitor for Moore Threads GPUs and their processes")
string(REPLACE "\n.\n" "\n\n" CPACK_RPM_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
# The directories every system already owns are not the package's.
set(CPACK_RPM_EXCLUDE_FROM_AUTO_FILELIST_ADDITION /usr/lib/systemd /usr/lib/systemd/system /usr/share/man
    /usr/share/man/man1 /usr/share/bash-completion /usr/share/bash-completion/completions /usr/share/zsh
    /usr/share/zsh/vendor-completions /usr/share/fish /usr/share/fish/vendor_completions.d /usr/share/doc)
# What the package needs, checked before CPack starts (cmake/package_preflight.cmake).
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/package_preflight.cmake)
set(CPACK_MUSATOP_BINARY_DIR ${PROJECT_BINARY_DIR})
include(CPack)
