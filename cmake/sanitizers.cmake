# Sanitizer and fuzzer builds (docs/reliability.md). Both need clang; both apply to every target
# of the tree, so the libraries the tests and fuzzers link are instrumented too.
#   PERFMODEL_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer; undefined behaviour
#     aborts (-fno-sanitize-recover), so a test that reaches it fails.
#   PERFMODEL_FUZZERS=ON: also compiles with libFuzzer's coverage instrumentation and builds one
#     libFuzzer target per input reader (fuzz/), registered as "fuzz: <reader>" smoke tests.
option(PERFMODEL_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer (clang)" OFF)
option(PERFMODEL_FUZZERS "Build the libFuzzer targets in fuzz/ (clang; implies PERFMODEL_SANITIZE)" OFF)

if(PERFMODEL_FUZZERS)
  set(PERFMODEL_SANITIZE ON)
endif()
if(PERFMODEL_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PERFMODEL_SANITIZE and PERFMODEL_FUZZERS need clang "
                        "(e.g. -DCMAKE_CXX_COMPILER=clang++-14)")
  endif()
  set(pm_sanitize -fsanitize=address,undefined -fno-sanitize-recover=undefined
                  -fno-omit-frame-pointer)
  if(PERFMODEL_FUZZERS)
    # Coverage for libFuzzer without its main(); the fuzz targets link -fsanitize=fuzzer. The
    # sanitizer runtime's no-op coverage hooks let the tests link the same objects.
    list(APPEND pm_sanitize -fsanitize=fuzzer-no-link)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${pm_sanitize}>")
  add_link_options(-fsanitize=address,undefined)
  # GCC-only warning names in PM_WARNINGS (-Wno-restrict) are not clang's.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-Wno-unknown-warning-option>)
  message(STATUS "perfmodel: sanitizers ON (${pm_sanitize})")
endif()
