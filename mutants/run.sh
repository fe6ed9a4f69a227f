#!/bin/sh
# make mutants: prove that make test's lock checks catch a broken lock.
#
# Each mutants/NAME.patch is one small change on top of the series (its
# first lines say what it breaks; a "config: CONFIG_X=v" line adds a config
# option, a "variant: V" line builds it as variant V instead of ticket). For
# each mutant: build/mutants/linux, a worktree of build/linux at the
# series, gets the patch; the variant is built there, out of tree, and run
# through make test's checks of a variant: the lock check, the boots at 1, 2
# and 4 vCPUs with KUnit, the selftests, locktorture and its fairness run
# (lab/guest-checks.sh), and lockbench's FIFO check (bench/test/guest-test.sh);
# a combo mutant (the kernel that chooses its spinlock at boot) through
# lab/combo-checks.sh instead, the one image booted once per choice.
# A mutant is killed when at least one check fails. Prints a kill matrix
# (mutant x check) and exits non-zero if any mutant survived.
#
# Usage: mutants/run.sh [NAME...]    (default: all of mutants/*.patch)
#   TORTURE_SECS   seconds per locktorture type (default 8)
. "$(dirname "$0")/../lab/lib.sh"
cd "$LAB" || exit 1

all=$(cd mutants && ls *.patch | sed 's/\.patch$//')
names=${*:-$all}
for m in $names; do
	[ -f "mutants/$m.patch" ] || die "unknown mutant '$m' (valid: $(echo $all))"
done
TORTURE_SECS=${TORTURE_SECS:-8}
check_number TORTURE_SECS "$TORTURE_SECS" 1 600

lab/deps.sh && lab/tree.sh || exit 1
MB=$BUILD/mutants
WT=$MB/linux
head=$(git -C "$TREE" rev-parse HEAD)
mkdir -p "$MB" "$LOGS"
if [ ! -d "$WT" ]; then
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$WT" "$head" >"$LOGS/mutants.log" 2>&1 ||
		{ show_tail "$LOGS/mutants.log"; die "cannot make a worktree at $WT"; }
fi
wt_reset() {
	git -C "$WT" checkout -q -f --detach "$head" && git -C "$WT" reset -q --hard "$head" &&
		git -C "$WT" clean -fdq
}
# Every mutant must apply before anything is built.
for m in $names; do
	wt_reset || die "cannot reset $WT"
	git -C "$WT" apply --check "$LAB/mutants/$m.patch" 2>/dev/null ||
		die "mutant $m does not apply to the series (mutants/$m.patch)"
done

# The columns of the kill matrix: make test's check names, less the variant.
COLS="build lock boot1 kunit1 boot2 kunit2 selftests2 torture2 fair2 boot4 kunit4 selftests4 torture4 fair4 fifo combo"
col_of() {
	case $1 in
	"boot combo "* | "spinlock combo "* | "kunit combo "* | "kunit skip combo "* | \
		"locking selftests combo "* | "locktorture combo "*) echo combo ;;
	"build "*) echo build ;;
	"lock "*) echo lock ;;
	"boot "*smp=*) echo "boot${1##*smp=}" ;;
	"kunit "*smp=*) echo "kunit${1##*smp=}" ;;
	"locking selftests "*smp=*) echo "selftests${1##*smp=}" ;;
	"locktorture fairness "*smp=*) s=${1##*smp=}; echo "fair${s%% *}" ;;
	"locktorture "*smp=*) s=${1##*smp=}; echo "torture${s%% *}" ;;
	"lockbench FIFO "*) echo fifo ;;
	esac
}

matrix=$MB/matrix.txt
: >"$matrix"
t0=$(date +%s)
survivors=0
for m in $names; do
	desc=$(sed -n '1,/^---$/p' "mutants/$m.patch" | sed '$d')
	v=$(echo "$desc" | sed -n 's/^variant: *//p')
	v=${v:-ticket}
	check_variant "$v"
	echo "$desc" | sed -n 's/^config: *//p' >"$MB/$m.config"
	say "mutant $m ($v): $(echo "$desc" | head -n 1)"
	wt_reset && git -C "$WT" apply "$LAB/mutants/$m.patch" || die "mutant $m does not apply"
	res=$MB/$m.results
	: >"$res"
	export BUILD="$MB" LAB_EXTRA_CONFIG="$MB/$m.config"
	t=$(date +%s)
	if lab/build.sh "$v" >"$MB/$m.build.log" 2>&1; then
		echo "ok   build $v" >>"$res"
		if [ "$v" = combo ]; then
			# The image that chooses its spinlock at boot: its own boots.
			TORTURE_SECS=$TORTURE_SECS lab/combo-checks.sh 2>/dev/null | grep -E '^(ok|FAIL) ' >>"$res"
		else
			out=$(lab/lockcheck.sh "$v") && echo "ok   lock $v: $out" >>"$res" || echo "FAIL lock $v: $out" >>"$res"
			TORTURE_SECS=$TORTURE_SECS lab/guest-checks.sh "$v" 2>/dev/null | grep -E '^(ok|FAIL) ' >>"$res"
			bench/test/guest-test.sh "$v" 2>/dev/null | grep -E '^(ok|FAIL) ' >>"$res"
		fi
	else
		echo "FAIL build $v: $(grep -E 'error' "$MB/$m.build.log" | head -n 1)" >>"$res"
	fi
	unset BUILD LAB_EXTRA_CONFIG
	took=$(($(date +%s) - t))
	# One row: per column KILL (a check failed), ok (all passed), - (none ran).
	row="$m"
	killed=0
	for c in $COLS; do
		st=-
		while IFS= read -r l; do
			name=${l#* }
			name=$(echo "$name" | sed 's/^ *//; s/: .*//')
			[ "$(col_of "$name")" = "$c" ] || continue
			case $l in
			FAIL*) st=KILL ;;
			ok*) [ "$st" = - ] && st=ok ;;
			esac
		done <"$res"
		[ "$st" = KILL ] && killed=1
		row="$row $st"
	done
	echo "$row ${took}s" >>"$matrix"
	[ "$killed" = 1 ] || survivors=$((survivors + 1))
	grep '^FAIL' "$res" | head -n 3 | sed "s/^/  $m: /" >&2
done

# The kill matrix.
echo
{
	echo "mutant $COLS time"
	cat "$matrix"
} | awk '{ printf "%-22s", $1; for (i = 2; i <= NF; i++) printf " %-10s", $i; print "" }' 
echo
echo "$(wc -l <"$matrix") mutants, $survivors survived, $(($(date +%s) - t0)) s (per-check lines: $MB/NAME.results)"
[ "$survivors" -eq 0 ]
