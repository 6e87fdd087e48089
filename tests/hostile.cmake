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
