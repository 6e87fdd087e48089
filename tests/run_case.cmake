# Runs one golden case.
#
# A case directory holds:
#   cmd            one line: the arguments to gpuplan; @SRC@ is the source root
#   expected/rc    the exit code
#   expected/stdout, expected/stderr   exact output (the source root reads @SRC@)
#   expected/<path> any other file: compared with <path> in the work directory
#   env            optional: VAR=VALUE words set for the command (test hooks, docs/testing.md)
#   any other file: an input, copied into the work directory first
# The command runs in the work directory.  When it exits non-zero, the case
# also checks that it wrote no file.  With GPUPLAN_UPDATE_GOLDEN=1 in the
# environment the outputs are copied back into expected/ instead.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(GLOB _inputs LIST_DIRECTORIES true "${CASE_DIR}/*")
foreach(f IN LISTS _inputs)
  get_filename_component(n "${f}" NAME)
  if(NOT n STREQUAL "expected" AND NOT n STREQUAL "cmd" AND NOT n STREQUAL "env")
    file(COPY "${f}" DESTINATION "${WORK_DIR}")
  endif()
endforeach()
file(GLOB_RECURSE _before RELATIVE "${WORK_DIR}" "${WORK_DIR}/*")

file(READ "${CASE_DIR}/cmd" _cmd)
string(STRIP "${_cmd}" _cmd)
string(REPLACE "@SRC@" "${SRC_DIR}" _cmd "${_cmd}")
separate_arguments(_args UNIX_COMMAND "${_cmd}")
# WRAPPER: an optional command run in front (valgrind with its options), words separated by '|'.
string(REPLACE "|" ";" WRAPPER "${WRAPPER}")
set(_env "")
if(EXISTS "${CASE_DIR}/env")
  file(READ "${CASE_DIR}/env" _env)
  string(STRIP "${_env}" _env)
  separate_arguments(_env UNIX_COMMAND "${_env}")
  list(PREPEND _env "${CMAKE_COMMAND}" -E env)
endif()
execute_process(COMMAND ${_env} ${WRAPPER} "${GPUPLAN}" ${_args}
                WORKING_DIRECTORY "${WORK_DIR}"
                OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
string(REPLACE "${SRC_DIR}" "@SRC@" _out "${_out}")
string(REPLACE "${SRC_DIR}" "@SRC@" _err "${_err}")

set(_actual "${WORK_DIR}.actual")
file(REMOVE_RECURSE "${_actual}")
file(WRITE "${_actual}/rc" "${_rc}\n")
file(WRITE "${_actual}/stdout" "${_out}")
file(WRITE "${_actual}/stderr" "${_err}")

set(_fail "")
if(NOT _rc EQUAL 0)
  file(GLOB_RECURSE _after RELATIVE "${WORK_DIR}" "${WORK_DIR}/*")
  foreach(f IN LISTS _after)
    list(FIND _before "${f}" _i)
    if(_i LESS 0)
      string(APPEND _fail "exit ${_rc} but wrote '${f}'\n")
    endif()
  endforeach()
endif()

if(DEFINED ENV{GPUPLAN_UPDATE_GOLDEN})
  file(MAKE_DIRECTORY "${CASE_DIR}/expected")
  foreach(f rc stdout stderr)
    file(COPY_FILE "${_actual}/${f}" "${CASE_DIR}/expected/${f}")
  endforeach()
  file(GLOB_RECURSE _exp RELATIVE "${CASE_DIR}/expected" "${CASE_DIR}/expected/*")
  foreach(f IN LISTS _exp)
    if(NOT f MATCHES "^(rc|stdout|stderr)$" AND EXISTS "${WORK_DIR}/${f}")
      file(COPY_FILE "${WORK_DIR}/${f}" "${CASE_DIR}/expected/${f}")
    endif()
  endforeach()
  return()
endif()

file(GLOB_RECURSE _exp RELATIVE "${CASE_DIR}/expected" "${CASE_DIR}/expected/*")
if(NOT _exp)
  message(FATAL_ERROR "case ${CASE_DIR} has no expected/ files")
endif()
foreach(f IN LISTS _exp)
  if(f MATCHES "^(rc|stdout|stderr)$")
    set(_got "${_actual}/${f}")
  else()
    set(_got "${WORK_DIR}/${f}")
  endif()
  if(NOT EXISTS "${_got}")
    string(APPEND _fail "missing output '${f}'\n")
    continue()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${CASE_DIR}/expected/${f}" "${_got}"
                  RESULT_VARIABLE _diff)
  if(NOT _diff EQUAL 0)
    execute_process(COMMAND diff -u "${CASE_DIR}/expected/${f}" "${_got}" OUTPUT_VARIABLE _d)
    string(APPEND _fail "'${f}' differs:\n${_d}\n")
  endif()
endforeach()
if(_fail)
  message(FATAL_ERROR "case ${CASE_DIR}:\n${_fail}")
endif()
