#!/bin/sh
# make bench: build what is missing, boot the ticket and the queued kernel
# at each vCPU count, run lockbench, fairness and the workload inside,
# fairness on the host, then write results/ with bench/report.sh.
#
# Boots, per vCPU count:
#   ticket         bigticket kernel: FIFO ticket spinlock_t (16-bit tickets)
#   queued-guest   queued kernel as a TCG guest gets it: the hypervisor bit
#                  turns qspinlock into virt_spin_lock()'s test-and-set lock
#   queued-native  queued kernel with -cpu qemu64,-hypervisor: qspinlock
#
# Settings (environment; a bad value stops with a one-line error):
#   BENCH_SMP            vCPU counts (default "2 4")
#   BENCH_COUNT          lockbench acquisitions per CPU and lock (default 1000000)
#   BENCH_CAP_MS         lockbench: stop a lock's run after this (default 5000)
#   BENCH_CS_LINES       cache lines written per critical section (default 1)
#   BENCH_THINK          PAUSEs after each unlock (default 0)
#   BENCH_FAIRNESS_N     fairness -n in the guests (default 1000000)
#   BENCH_FAIRNESS_TIMEOUT  seconds per fairness lock in a guest (default 20)
#   BENCH_HOST_N         fairness -n on the host (default 1000000)
#   BENCH_WORKLOAD_SECS  seconds per workload run (default 2)
#   BENCH_WORKLOAD_ROUNDS  runs per workload mode; the best counts (default 3)
#   BENCH_OUT            output folder (default results)
# Builds and boots use build/bench/ for their initramfs, so make test's
# files in build/ are left alone.
. "$(dirname "$0")/../lab/lib.sh"
cd "$LAB" || exit 1

# num NAME VALUE MIN MAX: VALUE must be a decimal in [MIN, MAX].
num() {
	case $2 in
	'' | *[!0-9]* | 0?*) die "bad $1 '$2' (valid: $3 to $4)" ;;
	esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || die "bad $1 '$2' (valid: $3 to $4)"
}

BENCH_SMP=${BENCH_SMP:-2 4}
BENCH_COUNT=${BENCH_COUNT:-1000000}
BENCH_CAP_MS=${BENCH_CAP_MS:-5000}
BENCH_CS_LINES=${BENCH_CS_LINES:-1}
BENCH_THINK=${BENCH_THINK:-0}
BENCH_FAIRNESS_N=${BENCH_FAIRNESS_N:-1000000}
BENCH_FAIRNESS_TIMEOUT=${BENCH_FAIRNESS_TIMEOUT:-20}
BENCH_HOST_N=${BENCH_HOST_N:-1000000}
BENCH_WORKLOAD_SECS=${BENCH_WORKLOAD_SECS:-2}
BENCH_WORKLOAD_ROUNDS=${BENCH_WORKLOAD_ROUNDS:-3}
OUT=${BENCH_OUT:-results}
for s in $BENCH_SMP; do
	num BENCH_SMP "$s" 1 64
done
[ -n "$BENCH_SMP" ] || die "bad BENCH_SMP '' (valid: vCPU counts 1 to 64, e.g. \"2 4\")"
num BENCH_COUNT "$BENCH_COUNT" 1 1000000000
num BENCH_CAP_MS "$BENCH_CAP_MS" 1 60000
num BENCH_CS_LINES "$BENCH_CS_LINES" 1 64
num BENCH_THINK "$BENCH_THINK" 0 100000
num BENCH_FAIRNESS_N "$BENCH_FAIRNESS_N" 1 1000000000
num BENCH_FAIRNESS_TIMEOUT "$BENCH_FAIRNESS_TIMEOUT" 1 3600
num BENCH_HOST_N "$BENCH_HOST_N" 1 1000000000
num BENCH_WORKLOAD_SECS "$BENCH_WORKLOAD_SECS" 1 600
num BENCH_WORKLOAD_ROUNDS "$BENCH_WORKLOAD_ROUNDS" 1 100

# Never remove a folder that is not an earlier make bench output.
if [ -e "$OUT" ] && [ ! -f "$OUT/raw/settings.txt" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
	die "BENCH_OUT '$OUT' exists and is not a make bench output: not replacing it"
fi

t_start=$(date +%s)
elapsed() { echo "$(($(date +%s) - t_start)) s"; }

say "dependencies"
lab/deps.sh gnuplot-nox || exit 1
lab/tree.sh || exit 1
for v in bigticket queued; do
	lab/build.sh "$v" || exit 1
done

say "userspace tools (bench/fairness, bench/workload)"
make -s -C bench fairness fairness.static workload.static >"$LOGS/bench-tools.log" 2>&1 ||
	{ show_tail "$LOGS/bench-tools.log"; die "building bench tools failed"; }

# build/bench: symlinks to the kernels, its own initramfs and modules.
BB=$BUILD/bench
mkdir -p "$BB" "$LOGS"
ln -sfn ../linux "$BB/linux"
for v in bigticket queued; do
	ln -sfn "../kernel-$v" "$BB/kernel-$v"
	say "lockbench.ko for $v"
	ko=$(bench/build-lockbench.sh "$v" "$BB/lockbench-$v") || exit 1
	BUILD=$BB lab/initramfs.sh "$v" "$ko" bench/fairness.static \
		bench/workload.static || exit 1
done

rm -rf "$OUT"
mkdir -p "$OUT/raw"
cat >"$OUT/raw/settings.txt" <<EOF
bench=1 date=$(date -u +%Y-%m-%dT%H:%MZ) smp=$(echo $BENCH_SMP | tr ' ' ,) count=$BENCH_COUNT cap_ms=$BENCH_CAP_MS cs_lines=$BENCH_CS_LINES think=$BENCH_THINK fairness_n=$BENCH_FAIRNESS_N fairness_timeout=$BENCH_FAIRNESS_TIMEOUT host_n=$BENCH_HOST_N workload_secs=$BENCH_WORKLOAD_SECS workload_rounds=$BENCH_WORKLOAD_ROUNDS host_cpus=$NCPU
host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
qemu=$(qemu-system-x86_64 --version | head -n 1)
kernel=$(git -C "$TREE" describe --tags --always 2>/dev/null) series=$(git -C "$TREE" log --oneline base..HEAD 2>/dev/null | wc -l) patches
EOF

# lockbench twice: as spin_lock() takes a lock, then with interrupts off
# (as spin_lock_irq()), which keeps interrupts out of its waiter count.
args="count=$BENCH_COUNT,duration_ms=$BENCH_CAP_MS,cs_lines=$BENCH_CS_LINES,think=$BENCH_THINK"
append="lab.bench=1 lab.bench_args=$args,irqsoff=0/$args,irqsoff=1"
append="$append lab.bench_fairness=-n,$BENCH_FAIRNESS_N,-c,$BENCH_CS_LINES,-w,$BENCH_THINK"
append="$append lab.bench_fairness_timeout=$BENCH_FAIRNESS_TIMEOUT lab.bench_workload=futex,open"
append="$append lab.bench_workload_secs=$BENCH_WORKLOAD_SECS lab.bench_workload_rounds=$BENCH_WORKLOAD_ROUNDS"
# Worst case per boot: 8 capped locks, 5 timed-out fairness locks, workloads.
timeout=$((180 + 8 * (BENCH_CAP_MS / 1000 + 2) + 5 * BENCH_FAIRNESS_TIMEOUT +
	2 * BENCH_WORKLOAD_ROUNDS * BENCH_WORKLOAD_SECS))

nboots=$((3 * $(echo $BENCH_SMP | wc -w)))
i=0 failed=0
for smp in $BENCH_SMP; do
	for setup in ticket queued-guest queued-native; do
		i=$((i + 1))
		cpu=qemu64
		case $setup in
		ticket) v=bigticket ;;
		queued-guest) v=queued ;;
		queued-native) v=queued cpu=qemu64,-hypervisor ;;
		esac
		log=$OUT/raw/console-$setup-smp$smp.log
		say "boot $i/$nboots: $setup ($v, -cpu $cpu) smp=$smp, up to ${timeout}s [$(elapsed)]"
		BUILD=$BB lab/boot.sh -t "$timeout" -c "$cpu" -a "$append" "$v" "$smp" "$log" \
			>"$log.boot" 2>&1 &
		pid=$!
		# Progress: where the guest is, every 15 s.
		n=0
		while kill -0 $pid 2>/dev/null; do
			sleep 1
			n=$((n + 1))
			[ $((n % 15)) -eq 0 ] &&
				say "  $setup smp=$smp: ${n} s, $(grep -a '^LAB: bench ' "$log" 2>/dev/null |
					tail -n 1 | sed 's/^LAB: bench //; s/ args=.*//')"
		done
		wait $pid
		rc=$?
		out=$(cat "$log.boot")
		rm -f "$log.boot"
		if [ $rc -ne 0 ]; then
			echo "FAIL boot $setup smp=$smp: $out" >&2
			show_tail "$log" 20
			failed=$((failed + 1))
			continue
		fi
		if ! out=$(lab/check.sh boot "$log"); then
			echo "FAIL boot $setup smp=$smp: $out" >&2
			failed=$((failed + 1))
		fi
		sed -n '/^LAB: bench begin/,/^LAB: bench end/p' "$log" |
			grep -E '^(lockbench=|lock=|cpu=|workload=|LAB: bench)' \
			>"$OUT/raw/$setup-smp$smp.txt"
		awk -v s="$setup" -v n="$smp" '
			/^lockbench=1 / { irq = $0; sub(/.* irqsoff=/, "", irq); sub(/ .*/, "", irq) }
			/^lock=.* impl=/ {
				for (i = 1; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
				printf "  %s smp=%s irqsoff=%s %-8s %9.3f Macq/s, jain %s, longest run %s, complete %s\n",
					s, n, irq, v["lock"], v["throughput"] / 1e6, v["jain"], v["longest_run"], v["complete"]
			}' "$OUT/raw/$setup-smp$smp.txt" >&2
	done
done

say "fairness on the host: -t $NCPU -n $BENCH_HOST_N [$(elapsed)]"
for l in legacy ticket8 ticket16 pthread_spin pthread_mutex; do
	timeout -s KILL 120 bench/fairness -k -p -t "$NCPU" -n "$BENCH_HOST_N" -l $l \
		-c "$BENCH_CS_LINES" -w "$BENCH_THINK" >>"$OUT/raw/host-fairness.txt" 2>&1
	rc=$?
	[ $rc -eq 137 ] && echo "LAB: bench fairness $l timed out after 120s" >>"$OUT/raw/host-fairness.txt"
	if [ $rc -ne 0 ]; then
		echo "FAIL fairness on the host, $l: exit $rc" >&2
		failed=$((failed + 1))
	fi
done

say "report [$(elapsed)]"
bench/report.sh "$OUT" || exit 1
say "done in $(elapsed): $OUT/report.md"
[ "$failed" -eq 0 ] || die "$failed check(s) failed (boots: see $OUT/raw/console-*.log)"
