#!/bin/sh
# checkpatch.pl --strict on one patch of the series, with the tree's script.
# Prints "clean" or the first findings; exits non-zero on any finding.
#
# One finding is expected and dropped: NEW_TYPEDEFS on the definition of
# arch_spinlock_t itself, the typedef every architecture's spinlock must
# provide (include/linux/spinlock_types_raw.h uses it; qspinlock_types.h
# and the 4.x x86 ticket lock define it the same way), whether as
# "typedef struct arch_spinlock {" or as "typedef struct NAME
# arch_spinlock_t;" for a lock with a name of its own.
# Usage: lab/checkpatch.sh patches/NNNN-x.patch
. "$(dirname "$0")/lib.sh"

p=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$p" ] || die "no such patch: $1"
# The cover letter has no diff for checkpatch: it must be filled in, and
# list every patch of the series.
case $p in */0000-cover-letter.patch)
	grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$p" &&
		{ echo "cover letter has git's placeholders (*** SUBJECT HERE ***)"; exit 1; }
	n=$(grep -vc '^0000-cover-letter.patch$' "$(dirname "$p")/series")
	grep -q "^Subject: \[PATCH 0*0/$n\] " "$p" ||
		{ echo "cover letter is not [PATCH 0/$n]"; exit 1; }
	# Its text is checked as a commit message is (line length, ...).
	[ -x "$TREE/scripts/checkpatch.pl" ] || die "no $TREE/scripts/checkpatch.pl: run lab/tree.sh"
	out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet \
		--no-summary --show-types "$p" 2>&1)
	[ -z "$out" ] || { echo "cover letter: $(echo "$out" | grep -E '^(ERROR|WARNING|CHECK)' | head -n 2 | tr '\n' ' ')"; exit 1; }
	echo "cover letter: $(sed -n 's/^Subject: \[PATCH 0*0\/[0-9]*\] //p' "$p" | cut -c1-60)"
	exit 0
	;;
esac
[ -x "$TREE/scripts/checkpatch.pl" ] || die "no $TREE/scripts/checkpatch.pl: run lab/tree.sh"
# Debian's python3 first: checkpatch runs spdxcheck.py, which needs python3-ply.
out=$(cd "$TREE" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict --quiet \
	--no-summary --show-types "$p" 2>&1 |
	awk -v RS= '!/^WARNING:NEW_TYPEDEFS:.*\n\+typedef struct (arch_spinlock \{|[a-z_]+ arch_spinlock_t;)/ { print; print "" }')
if [ -z "$out" ]; then
	echo clean
	exit 0
fi
echo "$out" | grep -E '^(ERROR|WARNING|CHECK)|Traceback|rror' | head -n 3 | tr '\n' ' '
echo
exit 1
