# Helpers of the scripts that print check lines (lab/guest-checks.sh,
# lab/combo-checks.sh, lab/debian.sh, lab/soak.sh, lab/coverage.sh,
# lab/bisect.sh, bench/test/guest-test.sh); sourced after lab/lib.sh, not
# run.
#
# LAB_LIST=1 is list mode: make test (tests/run) first asks each tool for
# the names of the checks it will print, so that a check that never prints
# its line is a FAIL. In list mode a script walks the same code: line,
# check and result print only the check's name and succeed, run runs
# nothing, so each check is named in one place, where it runs.
# shellcheck shell=sh

failed=0

# line 'ok   NAME'|'FAIL NAME'|'SKIP NAME' [DETAIL]: one check line; a FAIL
# sets failed=1 (the script's exit status).
line() {
	if [ -n "$LAB_LIST" ]; then
		printf '%s\n' "$1" | sed -E 's/^(ok|FAIL|SKIP) +//'
		return 0
	fi
	echo "$1${2:+: $2}"
	case $1 in FAIL*) failed=1 ;; esac
}

# result NAME STATUS DETAIL: ok if STATUS is 0, else FAIL (returns 1).
result() {
	if [ "$2" -eq 0 ]; then
		line "ok   $1" "$3"
	else
		line "FAIL $1" "$3"
		[ -n "$LAB_LIST" ]
	fi
}

# check NAME CMD...: ok with CMD's output if it exits 0, else FAIL.
check() {
	name=$1
	shift
	if [ -n "$LAB_LIST" ]; then echo "$name"; return 0; fi
	if out=$("$@"); then line "ok   $name" "$out"; else line "FAIL $name" "$out"; return 1; fi
}

# run CMD...: CMD, except in list mode (nothing, status 0).
run() {
	[ -n "$LAB_LIST" ] || "$@"
}

# pack_initramfs VARIANT: the variant's initramfs, or FAIL and exit.
pack_initramfs() {
	if ! out=$(run lab/initramfs.sh "$1" 2>&1); then
		line "FAIL initramfs $1" "$(echo "$out" | tail -n 1)"
		exit 1
	fi
	line "ok   initramfs $1" packed
}
