#!/bin/sh
# Whole kernels compared by alternated boots: each round boots every kernel
# once, in the order given, at SMP vCPUs, and runs the same lockbench loads
# and workloads in each. Host noise drifts over minutes, so a kernel is
# judged on its ratio to the first kernel inside each round, never on
# figures from different rounds.
#
# Usage: lab/ab.sh [-s SMP] [-r ROUNDS] [-l LOCKS] [-n LOADS] [-w MODES]
#                  [-i INITRAMFS] [-o DIR] NAME=BZIMAGE[@CMDLINE] ...
#   -s  vCPUs (default 4)
#   -r  rounds (default 3)
#   -l  lockbench locks, '+'-separated (default spinlock+legacy): each
#       load runs them 2 s each, irqs off; '' for no lockbench load
#   -n  lockbench loads per boot (default 2)
#   -w  workload modes, ','-separated (futex, open; default none), 4 runs
#       of 1 s each per boot
#   -i  initramfs (default: make bench's, build/bench/initramfs-combobench
#       .cpio.gz: its lockbench.ko must load into every kernel compared)
#   -o  output folder (default results/ab in the repository)
# NAME=BZIMAGE@CMDLINE: a kernel image (a path without '@') and more kernel
# command line for it (e.g. tas=build/kernel-combobench/arch/x86/boot/
# bzImage@spinlock=queued). The first kernel is the baseline. Relative
# paths are the caller's. DIR is emptied first: it must be empty, missing,
# or an earlier output of this script.
#
# Writes DIR/raw/NAME-smpSMP-bootROUND.txt (consoles), DIR/samples.tsv
# (bench/scripts/samples.awk), DIR/summary.tsv (bench/scripts/stats.awk:
# each kernel's medians; lockbench's ratio_* are inside each load) and
# DIR/ab.tsv: per round, NAME's figure over the baseline's (the mean of the
# boot's loads or runs), with where = NAME/BASE, summarised by stats.awk.
# Prints both files' throughput, ops_per_sec and inside-load ratio rows. A
# boot that fails (timeout, splat, no pass marker) is kept as
# NAME-smpSMP-bootROUND.failed.log, left out of the figures, and makes the
# exit status 1.
. "$(dirname "$0")/lib.sh"
caller=$(pwd)
cd "$LAB" || exit 1
# abs PATH: PATH as the caller meant it.
abs() { case $1 in /*) echo "$1" ;; *) echo "$caller/$1" ;; esac; }

smp=4 rounds=3 locks=spinlock+legacy loads=2 modes= out=$LAB/results/ab
initrd=$BUILD/bench/initramfs-combobench.cpio.gz
usage="usage: lab/ab.sh [-s SMP] [-r ROUNDS] [-l LOCKS] [-n LOADS] [-w MODES] [-i INITRAMFS] [-o DIR] NAME=BZIMAGE[@CMDLINE] ..."
while getopts s:r:l:n:w:i:o: opt; do
	case $opt in
	s) smp=$OPTARG ;;
	r) rounds=$OPTARG ;;
	l) locks=$OPTARG ;;
	n) loads=$OPTARG ;;
	w) modes=$OPTARG ;;
	i) initrd=$OPTARG ;;
	o) out=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || die "two kernels or more to compare ($usage)"
check_smp "$smp"
check_number "ROUNDS (-r)" "$rounds" 1 100
check_number "LOADS (-n)" "$loads" 1 20
[ -z "$locks" ] || echo "$locks" | grep -Eqx '[a-z0-9]+(\+[a-z0-9]+)*' ||
	die "bad lock list '$locks' (lockbench names joined by '+')"
[ -z "$modes" ] || echo "$modes" | grep -Eqx '[a-z]+(,[a-z]+)*' ||
	die "bad workload list '$modes' (modes joined by ',')"
for m in $(echo "$modes" | tr ',' ' '); do
	case $m in futex | open) ;; *) die "unknown workload mode '$m' (valid: futex, open)" ;; esac
done
[ -n "$locks$modes" ] || die "nothing to measure: -l '' and no -w"
names=
for k; do
	name=${k%%=*} spec=${k#*=}
	case $name in '' | *[!a-z0-9_]*) die "bad kernel name '$name' in '$k' (NAME=BZIMAGE[@CMDLINE], NAME of a-z 0-9 _)" ;; esac
	case $name in host*) die "kernel name '$name': a name may not start with 'host' (make bench's host files)" ;; esac
	[ "$name" != "$k" ] || die "'$k' is not NAME=BZIMAGE[@CMDLINE]"
	case " $names " in *" $name "*) die "kernel name '$name' given twice" ;; esac
	[ -f "$(abs "${spec%%@*}")" ] || die "no kernel image '${spec%%@*}' for $name"
	names="$names $name"
done
base=${1%%=*}
initrd=$(abs "$initrd")
[ -f "$initrd" ] || die "no initramfs '$initrd' (make bench builds it; or give -i)"

append="lab.bench=1"
nlocks=0
if [ -n "$locks" ]; then
	nlocks=$(echo "$locks" | tr '+' '\n' | grep -c .)
	append="$append lab.bench_rounds=$loads lab.bench_args=locks=$locks,count=0,duration_ms=2000,irqsoff=1"
else
	append="$append lab.bench_rounds=0"
fi
nmodes=0
if [ -n "$modes" ]; then
	nmodes=$(echo "$modes" | tr ',' '\n' | grep -c .)
	append="$append lab.bench_workload=$modes lab.bench_workload_secs=1 lab.bench_workload_rounds=4"
fi
# The boot's own work: each lockbench lock 2 s (+3 s to load and report),
# each workload run 1 s (+5 s); boot_timeout adds the bring-up.
work=$((loads * nlocks * 5 + nmodes * 4 * 6))
timeout=$(boot_timeout 1 "$work")

[ -n "$out" ] || die "empty output folder (-o)"
out=$(abs "$out")
if [ -n "$(ls -A "$out" 2>/dev/null)" ] && [ ! -d "$out/raw" ]; then
	die "'$out' is not empty and not an output of lab/ab.sh: give another -o"
fi
rm -rf "$out"
mkdir -p "$out/raw" || die "cannot create '$out'"
failed=0
# boot_failed WHY: keep the console as .failed.log, say why, go on.
boot_failed() {
	mv "$log" "${log%.txt}.failed.log"
	echo "FAIL $name smp=$smp round $r: $1 (console: ${log%.txt}.failed.log)"
	failed=1
}
r=1
while [ "$r" -le "$rounds" ]; do
	for k; do
		name=${k%%=*} spec=${k#*=}
		img=$(abs "${spec%%@*}") extra=
		case $spec in *@*) extra=${spec#*@} ;; esac
		log=$out/raw/$name-smp$smp-boot$r.txt
		if ! why=$(lab/boot.sh -t "$timeout" -K "$img" -I "$initrd" \
			-a "$extra $append" "$name" "$smp" "$log") ||
			! why=$(lab/check.sh boot "$log"); then
			boot_failed "$why"
			continue
		fi
		nl=$(grep -ac '^lock=' "$log") nw=$(grep -ac '^workload=' "$log")
		if [ "$nl" -lt $((loads * nlocks)) ] || [ "$nw" -lt $((nmodes * 4)) ]; then
			boot_failed "$nl of $((loads * nlocks)) lockbench results, $nw of $((nmodes * 4)) workload runs: $(grep -a -v 'taints' "$log" | grep -a -m1 'lockbench: \|insmod' | sed 's/^\[[^]]*\] *//' | tr -d '\r')"
			continue
		fi
		echo "ok   $name smp=$smp round $r: $nl lockbench results, $nw workload runs"
	done
	r=$((r + 1))
done

ls "$out"/raw/*.txt >/dev/null 2>&1 || die "no boot succeeded: nothing to compare"
awk -v host_cpus="$NCPU" -f bench/scripts/samples.awk "$out"/raw/*.txt >"$out/samples.tsv"
header='src	where	smp	irq	lock	metric	n	median	lo	hi	cover	max'
{ echo "$header"; awk -f bench/scripts/stats.awk "$out/samples.tsv" | sort; } >"$out/summary.tsv"
# Per round: each kernel's mean over its boot's loads (runs), over the
# baseline's in the same round.
awk -v base="$base" 'BEGIN { FS = OFS = "\t" }
$6 == "throughput" || $6 == "ops_per_sec" || $6 ~ /^ratio_throughput_/ {
	b = $8; sub(/\..*/, "", b)
	k = $1 OFS $3 OFS $4 OFS $5 OFS $6
	s[$2, k, b] += $7; n[$2, k, b]++
	keys[k] = 1; wh[$2] = 1; bs[b] = 1
}
END {
	for (w in wh) {
		if (w == base)
			continue
		for (k in keys)
			for (b in bs)
				if (n[w, k, b] && n[base, k, b] && s[base, k, b] > 0) {
					split(k, f, OFS)
					print f[1], w "/" base, f[2], f[3], f[4], f[5], \
						(s[w, k, b] / n[w, k, b]) / (s[base, k, b] / n[base, k, b]), b
				}
	}
}' "$out/samples.tsv" | awk -f bench/scripts/stats.awk | sort | { echo "$header"; cat; } >"$out/ab.tsv"
show() {
	awk 'BEGIN { FS = "\t" } $6 ~ /^(throughput|ops_per_sec|ratio_throughput_legacy)$/ {
		printf "  %-14s %-4s %-10s %-24s %.4g [%.4g, %.4g] n=%d (%.1f%%)\n", $2, $1, $5, $6, $8, $9, $10, $7, $11
	}'
}
echo "each kernel (median [interval] of its loads or runs): $out/summary.tsv"
show <"$out/summary.tsv"
echo "per round, over $base: $out/ab.tsv"
show <"$out/ab.tsv"
exit $failed
