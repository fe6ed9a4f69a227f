# Shared settings and helpers for the lab scripts; sourced, not run.
# shellcheck shell=sh

LAB=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$LAB/build}
TREE=$BUILD/linux
LOGS=$BUILD/logs
VARIANTS="ticket bigticket queued"
SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
NCPU=$(nproc 2>/dev/null || echo 2)
# ccache: hash paths under build/ relative to it, so other clones hit too.
export CCACHE_BASEDIR="$BUILD"

die() {
	echo "error: $*" >&2
	exit 1
}

say() {
	printf '%s [%s] %s\n' "$(date +%H:%M:%S)" "$(basename "$0" .sh)" "$*" >&2
}

check_variant() {
	case " $VARIANTS " in
	*" $1 "*) ;;
	*) die "unknown variant '$1' (valid: $VARIANTS)" ;;
	esac
}

# vCPUs: 1..64, the NR_CPUS of the smallest variant.
check_smp() {
	case $1 in
	'' | *[!0-9]* | 0*) die "bad SMP value '$1' (valid: 1 to 64 vCPUs)" ;;
	esac
	[ "$1" -le 64 ] || die "bad SMP value '$1' (valid: 1 to 64 vCPUs)"
}

kbuild_dir() {
	echo "$BUILD/kernel-$1"
}

# Show the end of a log after a failure.
show_tail() {
	echo "---- last ${2:-30} lines of $1 ----" >&2
	tail -n "${2:-30}" "$1" >&2
	echo "----" >&2
}
