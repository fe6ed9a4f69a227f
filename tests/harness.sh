#!/bin/sh
# make test's own bookkeeping (tests/lib.sh), tested on fake tools: it must
# not pass what it did not see. One line per case, "harness NAME"; exits
# non-zero if any case failed; LAB_LIST=1 lists the cases' names.
# Usage: tests/harness.sh
cd "$(dirname "$0")/.." || exit 1
# line and result print the cases' lines (in list mode, their names).
. lab/checks.sh

# case NAME WANT_RC WANT_REGEX SCRIPT: run SCRIPT with tests/lib.sh sourced
# and finish() at the end; its exit status must be WANT_RC and its output
# must match WANT_REGEX (grep -E, on the whole output joined with '|').
case_() {
	name=$1 want_rc=$2 want=$3 script=$4
	[ -n "$LAB_LIST" ] && { line "ok   harness $name"; return; }
	d=$(mktemp -d)
	out=$(tmp=$d sh -c ". tests/lib.sh; $script; finish" 2>&1)
	rc=$?
	rm -rf "$d"
	joined=$(echo "$out" | tr '\n' '|')
	if [ "$rc" -eq "$want_rc" ] && echo "$joined" | grep -Eq "$want"; then
		line "ok   harness $name"
	else
		line "FAIL harness $name" "exit $rc, output: $joined"
	fi
}

case_ "all good" 0 '^ok   a: x\|0 skipped\|1 passed, 0 failed\|$' \
	'expect a; tool t sh -c "echo \"ok   a: x\""'
case_ "tool exits non-zero after ok lines" 1 'FAIL t: exited 3 after its checks passed.*1 passed, 1 failed' \
	'expect a; tool t sh -c "echo \"ok   a: x\"; exit 3"'
case_ "tool prints no check line" 1 'FAIL t: printed no check line, exit 0' \
	'tool t true'
case_ "expected check missing" 1 'FAIL b: did not run\|.*1 passed, 1 failed' \
	'expect a; expect b; ok a'
case_ "skip is not a pass" 0 'SKIP s: why\|1 skipped\|0 passed, 0 failed' \
	'expect s; tool t sh -c "echo \"SKIP s: why\""'
case_ "FAIL line counts" 1 'FAIL a: broken.*0 passed, 1 failed' \
	'expect a; tool t sh -c "echo \"FAIL a: broken\""'
case_ "check uses the exit status" 1 'FAIL c: said ok.*0 passed, 1 failed' \
	'expect c; check c sh -c "echo said ok; exit 1"'
# plan(): a check named where it runs is expected; one the real run never
# reaches, or a tool's listed check it never prints, did not run.
case_ "planned check not reached" 1 '^ok   a: x\|FAIL b: did not run\|0 skipped\|1 passed, 1 failed' \
	'f() { check a echo x; run false && ok b; }; plan f'
case_ "tool's listed check missing" 1 '^ok   a: x\|FAIL b: did not run\|.*1 passed, 1 failed' \
	'f() { tool t sh -c "if [ -n \"\$LAB_LIST\" ]; then echo a; echo b; else echo \"ok   a: x\"; fi"; }; plan f'
case_ "tool that lists nothing stops" 2 'error: t \(true\) lists no checks' \
	'f() { tool t true; }; plan f'

# refuse NAME PATTERN CMD...: CMD must exit non-zero at once, saying PATTERN.
refuse() {
	name=$1 pattern=$2
	shift 2
	[ -n "$LAB_LIST" ] && { line "ok   harness $name"; return; }
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && echo "$out" | grep -q "$pattern"; then
		line "ok   harness $name" "$(echo "$out" | tail -n 1)"
	else
		line "FAIL harness $name" "exit $rc: $out"
	fi
}
# Knobs are checked before anything is installed or built.
refuse "bad TORTURE_SECS" "bad TORTURE_SECS '0'" env TORTURE_SECS=0 sh tests/run
refuse "bad TEST_VARIANTS" "unknown variant 'nosuch'" env TEST_VARIANTS="ticket nosuch" sh tests/run
refuse "bad SOAK_SECS" "bad SOAK_SECS" env SOAK_SECS=x sh tests/run
refuse "bad VARIANT" "unknown variant 'x'" make -s kernel VARIANT=x
refuse "bad SMP" "bad SMP value '0'" make -s boot SMP=0
refuse "bad BENCH_IMAGE" "bad BENCH_IMAGE 'x' (valid: one, dedicated)" env BENCH_CROSS= BENCH_IMAGE=x sh bench/scripts/run.sh
refuse "bad BENCH_CROSS" "unknown setting 'tas'" env BENCH_IMAGE=dedicated BENCH_CROSS="skip tas" sh bench/scripts/run.sh
refuse "ab refuses one kernel" "two kernels or more" lab/ab.sh a=Makefile
refuse "ab refuses a missing image" "no kernel image '/nonexistent' for b" lab/ab.sh a=Makefile b=/nonexistent
refuse "ab refuses an unknown workload" "unknown workload mode 'x'" lab/ab.sh -w x a=Makefile b=Makefile
# lab/tree.sh never throws work away: a scratch tree with the lab's mark,
# then an uncommitted edit, then a commit that was not exported.
ft=$(mktemp -d)
git -C "$ft" init -q && echo a >"$ft/f" && git -C "$ft" add f &&
	git -C "$ft" -c user.name=t -c user.email=t@t commit -q -m a &&
	printf 'stamp\n%s\n' "$(git -C "$ft" rev-parse HEAD)" >"$ft/.git/lab-series"
echo b >"$ft/f"
refuse "tree refuses uncommitted changes" "uncommitted changes" env LAB_TREE="$ft" lab/tree.sh
git -C "$ft" -c user.name=t -c user.email=t@t commit -q -am b
refuse "tree refuses a HEAD that is not the series" "HEAD is not the series" env LAB_TREE="$ft" lab/tree.sh
rm -rf "$ft"
# Cases on the kernel tree's Kconfig (a FAIL each without the tree).
# tcase NAME FUNC: FUNC prints the detail and returns the case's status.
tcase() {
	if [ -n "$LAB_LIST" ]; then
		line "ok   harness $1"
	elif [ ! -f build/linux/Makefile ]; then
		result "harness $1" 1 "no kernel tree (run lab/tree.sh)"
	else
		out=$($2 2>&1)
		result "harness $1" $? "$(echo "$out" | tail -n 1)"
	fi
}
# configure_ ARCH NAME FRAGMENT...: lab/lib.sh's configure into
# build/cover-NAME.
configure_() {
	env LAB="$PWD" sh -c '. lab/lib.sh; a=$1 n=$2; shift 2; configure $a "$BUILD/cover-$n" "$LOGS/cover-$n.log" "$@"' sh "$@"
}
# A configuration that does not take an option is a one-line error naming
# it: the ticket choice without SMP (the choice depends on SMP).
refused() {
	printf 'CONFIG_X86_TICKET_SPINLOCKS=y\n# CONFIG_SMP is not set\n' >build/refused.config
	out=$(configure_ i386 refused build/refused.config 2>&1)
	rc=$?
	rm -f build/refused.config
	echo "$out"
	[ $rc -ne 0 ] && echo "$out" | grep -q "config options not set as asked.*CONFIG_X86_TICKET_SPINLOCKS=y"
}
# The skip-ticket mode's 8-bit tickets need NR_CPUS < 256: a config that
# asks for it with more CPUs never gets it (Kconfig drops it).
nr512() {
	printf 'CONFIG_NR_CPUS=512\n' >build/nr512.config
	out=$(configure_ x86_64 nr512 configs/base.config configs/skip.config build/nr512.config 2>&1)
	rc=$?
	rm -f build/nr512.config
	[ $rc -ne 0 ] && echo "$out" | grep -q 'CONFIG_X86_TICKET_SKIP_PREEMPTED=y' &&
		grep -q '^CONFIG_X86_TICKET_SPINLOCKS=y' build/cover-nr512/.config &&
		! grep -q '^CONFIG_X86_TICKET_SKIP_PREEMPTED=' build/cover-nr512/.config ||
		{ echo "$out"; return 1; }
	echo "olddefconfig kept the ticket lock and dropped the skip mode; $(echo "$out" | tail -n 1)"
}
# A later fragment overrides an earlier one (make mutants' extra config
# does): only the last setting of an option is checked.
override() {
	printf 'CONFIG_NR_CPUS=8\n' >build/first.config
	printf 'CONFIG_NR_CPUS=16\n' >build/last.config
	out=$(configure_ x86_64 override configs/base.config build/first.config build/last.config 2>&1)
	rc=$?
	rm -f build/first.config build/last.config
	[ $rc -eq 0 ] && grep -qx 'CONFIG_NR_CPUS=16' build/cover-override/.config ||
		{ echo "$out"; return 1; }
	echo "the last fragment's CONFIG_NR_CPUS=16 took, the first's 8 is not asked for"
}
tcase "config option refused" refused
tcase "skip mode refused with NR_CPUS 512" nr512
tcase "config override" override
exit $failed
