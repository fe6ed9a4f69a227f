# Helpers of the scripts that print check lines (lab/guest-checks.sh,
# lab/combo-checks.sh); sourced after lab/lib.sh, not run.
# shellcheck shell=sh

failed=0

# line 'ok   NAME'|'FAIL NAME' [DETAIL]: one check line; a FAIL sets
# failed=1 (the script's exit status).
line() {
	echo "$1${2:+: $2}"
	case $1 in FAIL*) failed=1 ;; esac
}

# check NAME CMD...: ok with CMD's output if it exits 0, else FAIL.
check() {
	name=$1
	shift
	if out=$("$@"); then line "ok   $name" "$out"; else line "FAIL $name" "$out"; return 1; fi
}

# pack_initramfs VARIANT: the variant's initramfs, or FAIL and exit.
pack_initramfs() {
	if ! out=$(lab/initramfs.sh "$1" 2>&1); then
		line "FAIL initramfs $1" "$(echo "$out" | tail -n 1)"
		exit 1
	fi
	line "ok   initramfs $1" packed
}
