#!/bin/bash
# test_ci_setup.sh - README command 1 (.ci/setup) as a new user meets it
# (issue #56 item 6), with apt, dpkg and cmake replaced by stubs that log
# their arguments: every apt-get waits for the dpkg lock another apt holds
# (unattended-upgrades at boot) instead of dying at once, and the build
# makes the man page and completion with gpuplan, so that `cmake --install
# build --prefix P` works right after it (test_install.sh installs them
# from a full build).  Cheap: nothing is installed or built.
#
# usage: bash test_ci_setup.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

mkdir -p repo/.ci bin && cp "$src/.ci/setup" repo/.ci/setup || exit 1
for tool in apt-get cmake sudo; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls.log"\n' "$tool" "$work" >"bin/$tool"
done
# sudo runs what it is given; dpkg-query finds nothing installed
printf '#!/bin/sh\necho "sudo $*" >>"%s/calls.log"\nexec "$@"\n' "$work" >bin/sudo
printf '#!/bin/sh\nexit 1\n' >bin/dpkg-query
chmod +x bin/*
PATH=$work/bin:$PATH bash repo/.ci/setup >setup.out 2>setup.err && ok || bad ".ci/setup exited $?: $(cat setup.err)"

apt=$(grep -c '^apt-get ' calls.log)
[ "$apt" -ge 2 ] && ok || bad "apt-get called $apt times: $(cat calls.log)"
[ "$(grep '^apt-get ' calls.log | grep -vc -- '-o DPkg::Lock::Timeout=[1-9]')" = 0 ] && ok \
	|| bad "an apt-get without DPkg::Lock::Timeout: $(grep '^apt-get ' calls.log | grep -v Lock::Timeout)"
grep -q '^cmake --build build .*--target gpuplan gpuplan-docs' calls.log && ok \
	|| bad "command 1 does not build gpuplan-docs (the man page and completion install needs): $(grep '^cmake' calls.log)"
# what install takes from the build tree is what gpuplan-docs makes
grep -q 'add_custom_target(gpuplan-docs ALL DEPENDS "${CMAKE_CURRENT_BINARY_DIR}/gpuplan.1"' "$src/planner/CMakeLists.txt" \
	&& grep -q 'install(FILES "${CMAKE_CURRENT_BINARY_DIR}/gpuplan.1"' "$src/planner/CMakeLists.txt" && ok \
	|| bad "planner/CMakeLists.txt: gpuplan.1 is not both what gpuplan-docs makes and what install takes"
finish
