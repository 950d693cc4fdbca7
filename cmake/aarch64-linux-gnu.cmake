# Cross-building the portable arm64 binary on Debian: the cross compiler of
# g++-aarch64-linux-gnu and the arm64 libraries of multiarch (libssl-dev:arm64 and
# the like, in /usr/lib/aarch64-linux-gnu). Header-only libraries are shared.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Run nothing built here on this machine (qemu-user runs the tests).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
# pkg-config (which FindOpenSSL asks first) must see the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
