# Hostile input (issue #8), included by tests/CMakeLists.txt:
#  - bad/<group>: the bad-input corpus tests/bad/<group>.cases, run by
#    tests/bad/run.sh with gpuplan, again with gpuplan_san (ASan+UBSan,
#    LeakSanitizer included; the few huge-input cases are left out there)
#    and, on every 12th case, under Valgrind (~1 s a case: a sample, to keep
#    ctest fast; `BAD_SAMPLE=1` with the valgrind wrapper runs them all);
#  - fuzz/<harness>: the libFuzzer harnesses of tests/fuzz built with the
#    replay driver (no libFuzzer needed), replaying the seed corpus and
#    every crash kept in tests/fuzz/crashes/<harness>; also under ASan;
#  - fuzz-mutate/<harness> (asan/fuzz-mutate/<harness> with the sanitizer
#    copies): a fixed number of deterministic mutations of the same
#    inputs (tests/fuzz/replay.c -m N -s 1), what CI fuzzes.
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

# Mutated inputs per harness in the fuzz-mutate tests: GPUPLAN_FUZZ_MUTATIONS for most, a share (in %)
# of it for the harnesses whose input is slower or faster to read (measured under ASan, 2026-12-06:
# a scenario ~50 ms, a models set ~18 ms, csv and yaml ~1 ms), so that every harness takes a few
# seconds and all of them together about 20 s on 2 cores.
set(GPUPLAN_FUZZ_MUTATIONS 500 CACHE STRING "mutated inputs per fuzz harness in ctest's fuzz-mutate tests")
set(_fuzz_mutations_csv 600)
set(_fuzz_mutations_yaml 600)
set(_fuzz_mutations_skypilot 80)
set(_fuzz_mutations_trace 60)
set(_fuzz_mutations_kubectl 60)
set(_fuzz_mutations_smi 50)
set(_fuzz_mutations_models 30)
set(_fuzz_mutations_scenario 12)
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
  # fuzz-mutate/<harness>: a fixed number of mutations of those inputs, seed 1 (replay.c -x -m),
  # on the ASan+UBSan copy when there is one: no libFuzzer, no clock, the same inputs everywhere.
  set(_n ${GPUPLAN_FUZZ_MUTATIONS})
  if(DEFINED _fuzz_mutations_${short})
    math(EXPR _n "${GPUPLAN_FUZZ_MUTATIONS} * ${_fuzz_mutations_${short}} / 100")
  endif()
  set(_mut_args -x -m ${_n} -s 1 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus/${short} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/crashes/${short})
  if(GPUPLAN_TEST_SANITIZERS)
    add_test(NAME asan/fuzz-mutate/${short} COMMAND ${name}_replay_san ${_mut_args})
    set_tests_properties(asan/fuzz-mutate/${short} PROPERTIES LABELS "asan;fuzz-mutate" ENVIRONMENT "LC_ALL=C")
  else()
    add_test(NAME fuzz-mutate/${short} COMMAND ${name}_replay ${_mut_args})
    set_tests_properties(fuzz-mutate/${short} PROPERTIES LABELS "unit;fuzz-mutate" ENVIRONMENT "LC_ALL=C")
  endif()
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
