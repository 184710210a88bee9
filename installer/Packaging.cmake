# CPack: a Debian package with `hearth` (desktop app), `hearth-cli`, the desktop entry and the icon.
#   cmake --build <dir> && (cd <dir> && cpack -G DEB)
# Runtime dependencies come from dpkg-shlibdeps (the Qt 6 and SQLite libraries the binaries link).
# The CUDA backend, when built, is a separate library (engine/src/cuda installs it to lib/) that the
# engine dlopens; the package starts on machines without NVIDIA drivers. Its cuBLAS comes from the
# CUDA toolkit, not from a Debian package: dpkg-shlibdeps is told where to find it (CPack already
# passes --ignore-missing-info), and the package does not depend on it.
if(NOT HEARTH_UI OR NOT TARGET hearth)
  message(STATUS "Hearth: no .deb packaging (the desktop app is not part of this build)")
  return()
endif()

include(GNUInstallDirs)
install(FILES ${CMAKE_SOURCE_DIR}/resources/hearth.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${CMAKE_SOURCE_DIR}/resources/hearth.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${HEARTH_ICON_PNG}
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps RENAME hearth.png)

set(CPACK_PACKAGE_NAME "hearth")
set(CPACK_PACKAGE_VENDOR "Hearth")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Language models on the office's own GPUs, for several people at once")
set(CPACK_PACKAGE_DESCRIPTION
    "Hearth runs GGUF language models on the GPUs (or CPU) of one computer and serves them to the office "
    "through an OpenAI-compatible API. It includes the desktop app (hearth) and the headless hearth-cli.")
set(CPACK_PACKAGE_CONTACT "Hearth maintainers <maintainers@hearth.invalid>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "hearth")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(TARGET hearth_cuda)
  find_package(CUDAToolkit QUIET)  # its variables live in engine/src/cuda's scope
  if(CUDAToolkit_LIBRARY_DIR)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
  endif()
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite")  # the SQLite driver is a plugin: no shlib link
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB")
include(CPack)
