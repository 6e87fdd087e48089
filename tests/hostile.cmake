# Hostile input (issue #8), included by tests/CMakeLists.txt:
#  - bad/<group>: the bad-input corpus tests/bad/<group>.cases, run by
#    tests/bad/run.sh with gpuplan, again with gpuplan_san (ASan+UBSan,
#    LeakSanitizer included; the few huge-input cases are left out there)
#    and, on every 12th case, under Valgrind (~1 s a case: a sample, to keep
#    ctest fast; `BAD_SAMPLE=1` with the valgrind wrapper runs them all);
#  - fuzz/<harness>: the libFuzzer harnesses of tests/fuzz built with the
#    replay driver (no libFuzzer needed), replaying the seed corpus and
#    every crash kept in tests/fuzz/crashes/<harness>; also under ASan.
file(GLOB _bad CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/bad/*.cases")
foreach(cases IN LISTS _bad)
  get_filename_component(group "${cases}" NAME_WE)
  # BAD_SKIP_HEAVY is empty (unset for run.sh) on the plain build, "_san" on the ASan one
  gpuplan_variants(bad/${group} golden "BAD_SKIP_HEAVY=@SUFFIX@"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/bad/run.sh @GPUPLAN@ ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/@VARIANT@bad/${group} ${cases})
  if(GPUPLAN_TEST_SANITIZERS AND VALGRIND)
    add_test(NAME valgrind/bad/${group}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad/run.sh $<TARGET_FILE:gpuplan> ${PROJECT_SOURCE_DIR}
                     ${CMAKE_CURRENT_BINARY_DIR}/valgrind-bad/${group} ${cases} ${_valgrind_wrapper})
    set_tests_properties(valgrind/bad/${group} PROPERTIES LABELS valgrind ENVIRONMENT "BAD_SAMPLE=12")
  endif()
endforeach()

file(GLOB _fuzz CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c")
foreach(src IN LISTS _fuzz)
  get_filename_component(name "${src}" NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" short "${name}")
  foreach(suffix "" "_san")
    if(suffix STREQUAL "" OR GPUPLAN_TEST_SANITIZERS)
      gpuplan_test_exe(${name}_replay "${suffix}" ${src} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c)
      target_include_directories(${name}_replay${suffix} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
    endif()
  endforeach()
  gpuplan_variants(fuzz/${short} unit "LC_ALL=C" ${name}_replay@SUFFIX@
                   ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${short} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${short})
endforeach()

# fuzz-ci/<harness> (label fuzz): libFuzzer itself, when clang and its
# fuzzer runtime are installed: every harness built with clang (ASan+UBSan,
# the core once: fuzz-ci/build) and run on GPUPLAN_FUZZ_RUNS inputs from
# seed 1 and the seed corpus, one process, so the inputs tried do not
# depend on the machine's speed.  `ctest -L fuzz`; about a minute a
# harness on an idle machine.  The hour-long run: tests/fuzz/run.sh 3600.
set(GPUPLAN_FUZZ_RUNS 1000 CACHE STRING "inputs per harness in ctest's fuzz-ci tests")
find_program(CLANG clang)
file(GLOB _fuzzer_rt /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a)
if(CLANG AND _fuzzer_rt)
  set(_fuzz_env "GPUPLAN_FUZZ_DIR=${CMAKE_CURRENT_BINARY_DIR}/fuzz-ci;GPUPLAN_FUZZ_JOBS=2")
  add_test(NAME fuzz-ci/build COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run.sh --build)
  set_tests_properties(fuzz-ci/build PROPERTIES LABELS fuzz FIXTURES_SETUP fuzz_ci ENVIRONMENT "${_fuzz_env}")
  foreach(src IN LISTS _fuzz)
    get_filename_component(name "${src}" NAME_WE)
    string(REGEX REPLACE "^fuzz_" "" short "${name}")
    add_test(NAME fuzz-ci/${short}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/run.sh --runs ${GPUPLAN_FUZZ_RUNS} ${short})
    set_tests_properties(fuzz-ci/${short} PROPERTIES LABELS fuzz FIXTURES_REQUIRED fuzz_ci
                         ENVIRONMENT "${_fuzz_env}")
  endforeach()
endif()
