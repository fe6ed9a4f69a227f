#!/bin/sh
# Check make's knobs before anything is installed or built: a bad value is a
# one-line error and a non-zero exit.
# Usage: lab/knobs.sh [variant V] [smp N]...
. "$(dirname "$0")/lib.sh"

while [ $# -ge 2 ]; do
	case $1 in
	variant) check_variant "$2" ;;
	smp) check_smp "$2" ;;
	*) die "lab/knobs.sh: unknown knob '$1'" ;;
	esac
	shift 2
done
[ $# -eq 0 ] || die "usage: lab/knobs.sh [variant V] [smp N]..."
