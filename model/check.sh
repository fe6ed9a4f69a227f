#!/bin/sh
# Exhaustive spin checks of the ticket spinlock model (model/ticket.pml).
#
# Usage: model/check.sh [K P expect]...
#   K       bits per ticket counter (1..7), P = number of CPUs (1..64)
#   expect  verify: safety (mutual exclusion, FIFO, is_locked, is_contended,
#                   no deadlock) and starvation freedom must hold
#           fail:   a counterexample must be found
# Without arguments, the standard set: K=2 P=1..3 verify, P=4 fail;
# K=3 P=1..7 verify, P=8 fail.
#
# One line per case: "ok   model K=2 P=3: verified (N states ...)",
# "ok   model K=2 P=4: counterexample: WHAT", or "FAIL model ...: WHY"
# followed by the tail of spin's output.  The first counterexample found is
# replayed (spin -t) as a short story of the steps.  Exits 1 if any failed.
#
# Environment:
#   TRYLOCK=auto|split|merged  trylock as two steps (read, cmpxchg) or one
#       (-DMERGED_TRYLOCK, see ticket.pml).  auto (default): split, except
#       merged for "verify" cases where (2^K+1)^P > 100000 (K=3: P>=6), for
#       which the split model has tens of millions of states.
#   LIVENESS=0   skip the LTL (starvation freedom) runs
#   SPIN_DEFS    extra spin -D options, e.g. -DNO_IS_LOCKED_CHECKS
#   KEEP=1       keep the build directory (trails for spin -t -p)
#   PAN_MEMLIM   pan memory limit in MB (default 2048)
#   PAN_OPT      gcc options for pan (default -O1: compiles fastest overall)
#   PAN_TIMEOUT  seconds per pan run (default 600; needs coreutils timeout)

LC_ALL=C
export LC_ALL

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd) || {
	echo "FAIL model: cannot find the script's directory"
	exit 1
}
model=$here/ticket.pml

# LAB_LIST=1: only the cases' names (make test's list of checks).
if [ -z "$LAB_LIST" ] && ! command -v spin >/dev/null 2>&1; then
	echo "FAIL model: spin not installed (apt-get install spin)"
	exit 1
fi
CC=${CC:-gcc}
if [ -z "$LAB_LIST" ] && ! command -v "$CC" >/dev/null 2>&1; then
	echo "FAIL model: $CC not installed (apt-get install gcc)"
	exit 1
fi
if [ ! -r "$model" ]; then
	echo "FAIL model: $model not found"
	exit 1
fi

TRYLOCK=${TRYLOCK:-auto}
LIVENESS=${LIVENESS:-1}
SPIN_DEFS=${SPIN_DEFS:-}
PAN_MEMLIM=${PAN_MEMLIM:-2048}
PAN_OPT=${PAN_OPT:--O1}
case $TRYLOCK in auto | split | merged) ;; *)
	echo "FAIL model: TRYLOCK must be auto, split or merged, not '$TRYLOCK'"
	exit 1 ;;
esac
case $PAN_MEMLIM in '' | *[!0-9]*)
	echo "FAIL model: PAN_MEMLIM must be a number of MB, not '$PAN_MEMLIM'"
	exit 1 ;;
esac

if [ $# -eq 0 ]; then
	set -- 2 1 verify 2 2 verify 2 3 verify 2 4 fail \
		3 1 verify 3 2 verify 3 3 verify 3 4 verify 3 5 verify \
		3 6 verify 3 7 verify 3 8 fail
fi
if [ $(($# % 3)) -ne 0 ]; then
	echo "FAIL model: usage: $0 [K P verify|fail]..."
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ticket-model.XXXXXX") || {
	echo "FAIL model: mktemp -d failed"
	exit 1
}
if [ "${KEEP:-0}" = 1 ]; then
	trap 'echo "model: build directory kept: $tmp"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT TERM HUP

# Optional wall-clock limits (coreutils timeout, if present).
if command -v timeout >/dev/null 2>&1; then
	limit="timeout ${PAN_TIMEOUT:-600}"
	short_limit="timeout 30"
else
	limit='' short_limit=''
fi

ncases=0
nfailed=0
replayed=0
start=$(date +%s)

# The last lines of a log, indented so that no line starts with ok/FAIL.
show_tail() {
	tail -n "${2:-15}" "$1" | sed 's/^/    | /'
}

# The telling lines of a pan log (all of it if it is short), indented.
show_pan() {
	if [ "$(wc -l <"$1")" -le 15 ]; then
		show_tail "$1"
	else
		grep -E '^pan|^error|^Full|errors:|states, stored|total actual memory' "$1" |
			head -n 12 | sed 's/^/    | /'
	fi
}

# What the first error in a pan log is, in words.
classify() {
	msg=$(grep -m1 '^pan:1: ' "$1")
	case $msg in
	*'owners<=1'*) what="two owners (mutual exclusion violated)" ;;
	*'head!=tail'*) what="is_locked false while held" ;;
	*'queued>0'*) what="is_contended wrong while held" ;;
	*'gseq'*) what="FIFO violated: lock granted out of ticket order" ;;
	*'invalid end state'*) what="deadlock (invalid end state)" ;;
	*'acceptance cycle'*) what="starvation: a waiter in lock() is never granted" ;;
	'') what="pan reported errors: $(grep -m1 'errors:' "$1")" ;;
	*) what=${msg#pan:1: } ;;
	esac
}

# pan PROG LOG ARGS...: run a verifier; retry once with a 5x deeper stack
# if the search was cut short.  Sets rc.
pan() {
	prog=$1 log=$2
	shift 2
	mdepth=2000000
	while :; do
		$limit "./$prog" -m$mdepth "$@" >"$log" 2>&1
		rc=$?
		if grep -q 'max search depth too small' "$log" && [ $mdepth -lt 10000000 ]; then
			mdepth=$((mdepth * 5))
			continue
		fi
		return
	done
}

# Does a pan log show a complete search without errors?  Sets why if not.
search_complete() {
	why=
	if [ "$rc" -eq 124 ]; then
		why="pan timed out"
	elif grep -q 'max search depth too small' "$1"; then
		why="search incomplete (max search depth too small)"
	elif grep -Eq 'out of memory|MEMLIM' "$1"; then
		why="search incomplete (out of memory, PAN_MEMLIM=$PAN_MEMLIM)"
	elif ! grep -q 'errors: 0$' "$1" && ! grep -q 'errors: 0 ' "$1"; then
		if grep -q 'errors: [1-9]' "$1"; then
			why=error
		else
			why="pan did not finish (exit $rc)"
		fi
	fi
	[ -z "$why" ]
}

states() {
	sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$1" | head -n 1
}

# Replay a counterexample as a story (the model's printf lines).
# replay DEFS [short]: with short, first look for the shortest safety
# trail with a breadth-first search (cheap for small models; at most 30 s,
# else the depth-first trail is used).
replay() {
	replayed=1
	defs=$1
	cp ticket.pml.trail first.trail
	if [ "${2:-}" = short ] && $CC -O1 -w -DSAFETY -DNOCLAIM -DBFS \
		-DMEMLIM="$PAN_MEMLIM" -o pan_bfs pan.c >/dev/null 2>&1; then
		rm -f ticket.pml.trail
		$short_limit ./pan_bfs -w22 >bfs.log 2>&1
		if [ -s ticket.pml.trail ]; then
			classify bfs.log      # may be a different error than the first
		else
			cp first.trail ticket.pml.trail
		fi
	fi
	# shellcheck disable=SC2086
	spin -t $defs ticket.pml >replay.log 2>&1
	steps=$(sed -n 's/^spin: trail ends after \([0-9]*\) steps.*/\1/p' replay.log)
	echo "    counterexample trail, $steps steps (spin -t $defs ticket.pml):"
	grep -E '^ *cpu[0-9]+ |text of failed assertion|START OF CYCLE' replay.log |
		head -n 40 | sed 's/^ *//; s/^/    | /'
	echo "    | => $what"
}

run_case() {
	K=$1 P=$2 expect=$3
	t0=$(date +%s)
	name="model K=$K P=$P"
	[ -n "$LAB_LIST" ] && { echo "$name"; return 0; }
	ncases=$((ncases + 1))
	case $K in [1-7]) ;; *) echo "FAIL $name: K must be 1..7"; return 1 ;; esac
	case $P in '' | *[!0-9]*) echo "FAIL $name: P must be a number"; return 1 ;; esac
	if [ "$P" -lt 1 ] || [ "$P" -gt 64 ]; then
		echo "FAIL $name: P must be 1..64"
		return 1
	fi
	case $expect in verify | fail) ;; *)
		echo "FAIL $name: expect must be verify or fail, not '$expect'"
		return 1 ;;
	esac

	variant='split'
	if [ "$TRYLOCK" = merged ]; then
		variant=merged
	elif [ "$TRYLOCK" = auto ] && [ "$expect" = verify ]; then
		# (2^K + 1)^P > 100000, without overflowing
		x=1 i=0
		while [ $i -lt "$P" ] && [ $x -le 100000 ]; do
			x=$((x * ((1 << K) + 1)))
			i=$((i + 1))
		done
		[ $x -gt 100000 ] && variant=merged
	fi
	defs="-DK=$K -DP=$P${SPIN_DEFS:+ $SPIN_DEFS}"
	[ $variant = merged ] && defs="$defs -DMERGED_TRYLOCK"
	note=
	[ $variant = merged ] && note="; trylock read+cmpxchg merged"

	dir=$tmp/$ncases-K$K-P$P
	if ! { mkdir -p "$dir" && cp "$model" "$dir/ticket.pml" && cd "$dir"; }; then
		echo "FAIL $name: cannot set up $dir"
		return 1
	fi

	# shellcheck disable=SC2086
	if ! spin $defs -a ticket.pml >spin.log 2>&1 || [ ! -f pan.c ]; then
		echo "FAIL $name: spin -a failed"
		show_tail spin.log
		return 1
	fi
	# shellcheck disable=SC2086
	if ! $CC $PAN_OPT -w -DSAFETY -DNOCLAIM -DT_REVERSE -DMEMLIM="$PAN_MEMLIM" \
		-o pan_safety pan.c >cc.log 2>&1; then
		echo "FAIL $name: gcc failed on pan.c (safety)"
		show_tail cc.log
		return 1
	fi

	# Safety: assertions and invalid end states (deadlock).
	pan pan_safety safety.log -w22
	if search_complete safety.log; then
		n=$(states safety.log)
	elif [ "$why" = error ]; then
		classify safety.log
		if [ "$expect" = fail ]; then
			echo "ok   $name: counterexample: $what"
			[ $replayed = 0 ] && replay "$defs" short
			return 0
		fi
		echo "FAIL $name: $what"
		show_pan safety.log
		[ $replayed = 0 ] && replay "$defs" short
		return 1
	else
		echo "FAIL $name: $why"
		show_pan safety.log
		return 1
	fi

	# Liveness: starvation freedom of lock() under weak fairness.
	if [ "$LIVENESS" = 0 ]; then
		live="; liveness not checked (LIVENESS=0)"
	else
		nfair=$(((P + 2) / 4 + 1))
		[ $nfair -lt 2 ] && nfair=2
		# shellcheck disable=SC2086
		if ! $CC $PAN_OPT -w -DNFAIR=$nfair -DT_REVERSE -DMEMLIM="$PAN_MEMLIM" \
			-o pan_live pan.c >cc-live.log 2>&1; then
			echo "FAIL $name: gcc failed on pan.c (liveness)"
			show_tail cc-live.log
			return 1
		fi
		pan pan_live live.log -a -f -w22
		if search_complete live.log; then
			live="; liveness $(states live.log) states"
		elif [ "$why" = error ]; then
			classify live.log
			if [ "$expect" = fail ]; then
				echo "ok   $name: counterexample: $what"
				[ $replayed = 0 ] && replay "$defs"
				return 0
			fi
			echo "FAIL $name: $what"
			show_pan live.log
			[ $replayed = 0 ] && replay "$defs"
			return 1
		else
			echo "FAIL $name: liveness: $why"
			show_pan live.log
			return 1
		fi
	fi

	if [ "$expect" = fail ]; then
		echo "FAIL $name: expected a counterexample, but it verified ($n states$note)"
		return 1
	fi
	echo "ok   $name: verified ($n states$live$note; $(($(date +%s) - t0)) s)"
	return 0
}

while [ $# -ge 3 ]; do
	run_case "$1" "$2" "$3" || nfailed=$((nfailed + 1))
	cd "$tmp" || exit 1
	shift 3
done

[ -n "$LAB_LIST" ] && exit 0
end=$(date +%s)
echo "model: $ncases cases, $nfailed failed, $((end - start)) s"
[ "$nfailed" -eq 0 ]
