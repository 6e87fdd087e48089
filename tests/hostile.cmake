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
  add_test(NAME bad/${group}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad/run.sh $<TARGET_FILE:gpuplan> ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/bad/${group} ${cases})
  set_tests_properties(bad/${group} PROPERTIES LABELS golden)
  if(GPUPLAN_TEST_SANITIZERS)
    add_test(NAME asan/bad/${group}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad/run.sh $<TARGET_FILE:gpuplan_san> ${PROJECT_SOURCE_DIR}
                     ${CMAKE_CURRENT_BINARY_DIR}/asan-bad/${group} ${cases})
    set_tests_properties(asan/bad/${group} PROPERTIES LABELS asan ENVIRONMENT "BAD_SKIP_HEAVY=1")
    if(VALGRIND)
      add_test(NAME valgrind/bad/${group}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/bad/run.sh $<TARGET_FILE:gpuplan> ${PROJECT_SOURCE_DIR}
                       ${CMAKE_CURRENT_BINARY_DIR}/valgrind-bad/${group} ${cases}
                       ${VALGRIND} -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect)
      set_tests_properties(valgrind/bad/${group} PROPERTIES LABELS valgrind ENVIRONMENT "BAD_SAMPLE=12")
    endif()
  endif()
endforeach()

file(GLOB _fuzz CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c")
foreach(src IN LISTS _fuzz)
  get_filename_component(name "${src}" NAME_WE)
  string(REGEX REPLACE "^fuzz_" "" short "${name}")
  set(_dirs ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${short} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${short})
  add_executable(${name}_replay ${src} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c)
  target_include_directories(${name}_replay PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
  target_compile_definitions(${name}_replay PRIVATE FUZZ_MODELS_DIR="${PROJECT_SOURCE_DIR}/models")
  target_link_libraries(${name}_replay PRIVATE planner_core gpuplan_warnings)
  add_test(NAME fuzz/${short} COMMAND ${name}_replay ${_dirs})
  set_tests_properties(fuzz/${short} PROPERTIES LABELS unit ENVIRONMENT "LC_ALL=C")
  if(GPUPLAN_TEST_SANITIZERS)
    add_executable(${name}_replay_san ${src} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay.c)
    target_include_directories(${name}_replay_san PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
    target_compile_definitions(${name}_replay_san PRIVATE FUZZ_MODELS_DIR="${PROJECT_SOURCE_DIR}/models")
    target_compile_options(${name}_replay_san PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all)
    target_link_options(${name}_replay_san PRIVATE -fsanitize=address,undefined)
    target_link_libraries(${name}_replay_san PRIVATE planner_core_san gpuplan_warnings)
    add_test(NAME asan/fuzz/${short} COMMAND ${name}_replay_san ${_dirs})
    set_tests_properties(asan/fuzz/${short} PROPERTIES LABELS asan ENVIRONMENT "LC_ALL=C")
  endif()
endforeach()
