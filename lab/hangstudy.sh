#!/bin/sh
# The 16-vCPU hang study: boot kernel settings many times at
# 16 vCPUs on this host running what make test's 16-vCPU check runs (KUnit
# where the kernel has it, locktorture spin_lock for 15 s, rmmod), and
# count how each boot ended. The lockdep kernels: ticket, skip,
# queuedlockdep (and queuedlockdep:native).
#
# Usage: lab/hangstudy.sh [-n BOOTS] [-s SMP] [-d DIR] SETTING...
#   SETTING  VARIANT or VARIANT:native (-cpu qemu64,-hypervisor: native
#            qspinlock on a queued kernel), e.g. ticket queued queued:native
#   -n       boots per setting (default 10), round robin over the settings
#   -s       vCPUs (default 16)
#   -d       where the console logs go (default build/logs/hangstudy)
# One line per boot: "boot I SETTING: ok|hang|fail: detail", then one
# summary line per setting ("SETTING: N ok, N hang, N fail"). A hang is a
# boot that ran into its timeout or whose console shows a hung task; its
# log keeps the stacks (the guests print hung-task and RCU stall dumps).
# The kernels must be built (lab/build.sh VARIANT).
. "$(dirname "$0")/lib.sh"
cd "$LAB" || exit 1

n=10 smp=16 dir=$LOGS/hangstudy
while getopts n:s:d: opt; do
	case $opt in
	n) n=$OPTARG ;;
	s) smp=$OPTARG ;;
	d) dir=$OPTARG ;;
	*) die "usage: lab/hangstudy.sh [-n BOOTS] [-s SMP] [-d DIR] SETTING..." ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || die "usage: lab/hangstudy.sh [-n BOOTS] [-s SMP] [-d DIR] SETTING..."
check_number -n "$n" 1 1000
check_smp "$smp"
for s in "$@"; do
	check_variant "${s%:native}"
	[ -f "$(kbuild_dir "${s%:native}")/arch/x86/boot/bzImage" ] ||
		die "${s%:native} is not built: run lab/build.sh ${s%:native}"
done
mkdir -p "$dir"
: >"$dir/results.txt"
for s in "$@"; do
	v=${s%:native}
	lab/initramfs.sh "$v" >/dev/null || exit 1
done

# the 16-vCPU check of tests/run: one torture type of 15 s
timeout=$(boot_timeout 1 15)
i=1
while [ "$i" -le "$n" ]; do
	for s in "$@"; do
		v=${s%:native} cpu=qemu64
		[ "$s" != "$v" ] && cpu=qemu64,-hypervisor
		log=$dir/$(echo "$s" | tr ':' '-')-smp$smp-$i.log
		start=$(date +%s)
		if ! out=$(lab/boot.sh -t "$timeout" -c "$cpu" \
			-a "lab.torture=spin_lock lab.torture_secs=15 lab.torture_args=stat_interval=5" \
			"$v" "$smp" "$log" 2>&1); then
			r=hang d="$out"
			grep -a -q 'blocked for more than' "$log" && d="$d; hung task: $(grep -a -m1 'blocked for more than' "$log")"
		elif known=$(lab/check.sh known "$log" 2>/dev/null); then
			r=hang d=$known
		elif out=$(lab/check.sh boot "$log" 2>&1) && out2=$(lab/check.sh torture "$log" spin_lock show 2>&1); then
			r=ok d="locktorture $out2"
		else
			r=fail d="$out $out2"
		fi
		echo "boot $i $s: $r: $d ($(($(date +%s) - start)) s, $log)"
		echo "$s $r" >>"$dir/results.txt"
	done
	i=$((i + 1))
done
for s in "$@"; do
	awk -v s="$s" '$1 == s { c[$2]++ } END {
		printf "%s: %d ok, %d hang, %d fail\n", s, c["ok"], c["hang"], c["fail"] }' "$dir/results.txt"
done
