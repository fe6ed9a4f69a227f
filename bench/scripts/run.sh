#!/bin/sh
# make bench: build what is missing, boot each kernel setting several times
# at each vCPU count (lockbench, fairness and the workload inside), measure
# on the host's real cores (fairness, the bookkeeping's cost, the seeds'
# long runs, cost), then write results/ with bench/scripts/report.sh.
#
# Kernel settings, each booted BENCH_BOOTS times per vCPU count. By default
# (BENCH_IMAGE=one) all four are one image, the combobench kernel
# (CONFIG_X86_BOOT_SPINLOCKS), booted under each choice; its 'spinlock: '
# boot line must name the lock the setting asks for:
#   ticket         spinlock=ticket: FIFO ticket spinlock_t (16-bit tickets)
#   skip           no spinlock=: the automatic choice of a guest without
#                  paravirt spinlocks, the skip-ticket lock, its patience
#                  skipticket.patience_us=BENCH_SKIP_US
#   queued-guest   spinlock=queued: qspinlock as a TCG guest gets it, the
#                  hypervisor bit turning it into virt_spin_lock()'s
#                  test-and-set lock
#   queued-native  no spinlock=, -cpu qemu64,-hypervisor: the automatic
#                  choice on bare metal, qspinlock
# BENCH_IMAGE=dedicated boots a kernel built for each instead: bigticket
# (ticket), skipbench (skip), queued (queued-guest, queued-native). The
# cross-check: the settings named in BENCH_CROSS are also booted from their
# dedicated kernels, as dedicated-SETTING, in the same round robin.
# Boots go round robin (boot 1 of every setting, then boot 2, ...), and every
# lockbench load and fairness round takes its locks in a new random order,
# so a drift of the host's speed during the run spreads over all locks.
# Every figure of the report is a median over boots x rounds with a 95%
# interval (bench/scripts/stats.awk).
#
# Settings (environment; a bad value stops with a one-line error):
#   BENCH_IMAGE          one (default) or dedicated: see above
#   BENCH_CROSS          settings also booted from their dedicated kernels
#                        with BENCH_IMAGE=one (default "skip queued-native";
#                        "" for none)
#   BENCH_SMP            vCPU counts (default "2 4 8")
#   BENCH_BOOTS          boots of each setting per vCPU count (default 3)
#   BENCH_ROUNDS         lockbench rounds per boot (default 2); each round
#                        loads it twice: as spin_lock(), and irqs off
#   BENCH_PAIRS          more lockbench loads, irqs off, of ticket8, skipticket
#                        and spin_lock() only, in the ticket and skip kernels'
#                        boots at vCPU counts the host CPUs can run at once
#                        (default 10): there the locks differ by a few percent,
#                        a load by 10%, and their ratios need more runs
#   BENCH_COUNT          lockbench acquisitions per CPU and lock (default 500000)
#   BENCH_CAP_MS         lockbench: stop a lock's run after this (default 2000)
#   BENCH_CS_LINES       cache lines written per critical section (default 1)
#   BENCH_THINK          PAUSEs after each unlock (default 0)
#   BENCH_FAIRNESS_N     fairness -n in the guests (default 100000)
#   BENCH_FAIRNESS_ROUNDS  fairness rounds per boot (default 2)
#   BENCH_FAIRNESS_TIMEOUT  seconds per fairness lock in a guest (default 4)
#   BENCH_HOST_N         fairness -n on the host (default 1000000)
#   BENCH_HOST_ROUNDS    fairness rounds on the host (default 9)
#   BENCH_RUNS_N         -n of the seeds' long-run attempt (default 10000000)
#   BENCH_RUNS_TRIES     tries of that attempt (default 3)
#   BENCH_COST_RUNS      runs of bench/bin/cost (default 7)
#   BENCH_WORKLOAD_SECS  seconds per workload run (default 1)
#   BENCH_WORKLOAD_ROUNDS  runs per workload mode and boot (default 2)
#   BENCH_SKIP_US        the skip-ticket lock's patience, microseconds, in the
#                        skip kernel, lockbench and fairness (default 100)
#   BENCH_OUT            output folder (default results)
# Builds and boots use build/bench/ for their initramfs, so make test's
# files in build/ are left alone.
LAB=${LAB:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$LAB/lab/lib.sh"
cd "$LAB" || exit 1

# num NAME VALUE MIN MAX: VALUE must be a decimal in [MIN, MAX].
num() {
	case $2 in
	'' | *[!0-9]* | 0?*) die "bad $1 '$2' (valid: $3 to $4)" ;;
	esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || die "bad $1 '$2' (valid: $3 to $4)"
}

BENCH_IMAGE=${BENCH_IMAGE:-one}
BENCH_CROSS=${BENCH_CROSS-skip queued-native}
BENCH_SMP=${BENCH_SMP:-2 4 8}
BENCH_BOOTS=${BENCH_BOOTS:-3}
BENCH_ROUNDS=${BENCH_ROUNDS:-2}
BENCH_PAIRS=${BENCH_PAIRS:-10}
BENCH_COUNT=${BENCH_COUNT:-500000}
BENCH_CAP_MS=${BENCH_CAP_MS:-2000}
BENCH_CS_LINES=${BENCH_CS_LINES:-1}
BENCH_THINK=${BENCH_THINK:-0}
BENCH_FAIRNESS_N=${BENCH_FAIRNESS_N:-100000}
BENCH_FAIRNESS_ROUNDS=${BENCH_FAIRNESS_ROUNDS:-2}
BENCH_FAIRNESS_TIMEOUT=${BENCH_FAIRNESS_TIMEOUT:-4}
BENCH_HOST_N=${BENCH_HOST_N:-1000000}
BENCH_HOST_ROUNDS=${BENCH_HOST_ROUNDS:-9}
BENCH_RUNS_N=${BENCH_RUNS_N:-10000000}
BENCH_RUNS_TRIES=${BENCH_RUNS_TRIES:-3}
BENCH_COST_RUNS=${BENCH_COST_RUNS:-7}
BENCH_WORKLOAD_SECS=${BENCH_WORKLOAD_SECS:-1}
BENCH_WORKLOAD_ROUNDS=${BENCH_WORKLOAD_ROUNDS:-2}
BENCH_SKIP_US=${BENCH_SKIP_US:-100}
OUT=${BENCH_OUT:-results}
for c in $BENCH_CROSS; do
	case $c in
	ticket | skip | queued-guest | queued-native) ;;
	*) die "bad BENCH_CROSS '$BENCH_CROSS': unknown setting '$c' (valid: ticket, skip, queued-guest, queued-native)" ;;
	esac
done
case $BENCH_IMAGE in
one) ;;
dedicated) BENCH_CROSS= ;;	# the dedicated kernels are the run
*) die "bad BENCH_IMAGE '$BENCH_IMAGE' (valid: one, dedicated)" ;;
esac
[ -n "$BENCH_SMP" ] || die "bad BENCH_SMP '' (valid: vCPU counts 1 to 64, e.g. \"2 4\")"
for s in $BENCH_SMP; do
	num BENCH_SMP "$s" 1 64
done
num BENCH_BOOTS "$BENCH_BOOTS" 1 100
num BENCH_ROUNDS "$BENCH_ROUNDS" 1 100
num BENCH_PAIRS "$BENCH_PAIRS" 0 100
num BENCH_COUNT "$BENCH_COUNT" 1 1000000000
num BENCH_CAP_MS "$BENCH_CAP_MS" 1 60000
num BENCH_CS_LINES "$BENCH_CS_LINES" 1 64
num BENCH_THINK "$BENCH_THINK" 0 100000
num BENCH_FAIRNESS_N "$BENCH_FAIRNESS_N" 1 1000000000
num BENCH_FAIRNESS_ROUNDS "$BENCH_FAIRNESS_ROUNDS" 1 100
num BENCH_FAIRNESS_TIMEOUT "$BENCH_FAIRNESS_TIMEOUT" 1 3600
num BENCH_HOST_N "$BENCH_HOST_N" 1 1000000000
num BENCH_HOST_ROUNDS "$BENCH_HOST_ROUNDS" 1 1000
num BENCH_RUNS_N "$BENCH_RUNS_N" 1 1000000000
num BENCH_RUNS_TRIES "$BENCH_RUNS_TRIES" 1 100
num BENCH_COST_RUNS "$BENCH_COST_RUNS" 1 100
num BENCH_WORKLOAD_SECS "$BENCH_WORKLOAD_SECS" 1 600
num BENCH_WORKLOAD_ROUNDS "$BENCH_WORKLOAD_ROUNDS" 1 100
num BENCH_SKIP_US "$BENCH_SKIP_US" 1 10000

# Never remove a folder that is not an earlier make bench output.
if [ -e "$OUT" ] && [ ! -f "$OUT/raw/settings.txt" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
	die "BENCH_OUT '$OUT' exists and is not a make bench output: not replacing it"
fi

t_start=$(date +%s)
elapsed() { echo "$(($(date +%s) - t_start)) s"; }

say "dependencies"
lab/deps.sh gnuplot-nox || exit 1
lab/tree.sh || exit 1
# kernel SETTING: the kernel a setting boots, the one image or the one
# built for its lock alone
kernel() {
	case $BENCH_IMAGE:$1 in
	one:dedicated-*) ;;
	one:*) echo combobench && return ;;
	esac
	case ${1#dedicated-} in
	ticket) echo bigticket ;;
	skip) echo skipbench ;;
	queued-guest | queued-native) echo queued ;;
	esac
}
SETUPS="ticket skip queued-guest queued-native"
for c in $BENCH_CROSS; do
	SETUPS="$SETUPS dedicated-$c"
done
KERNELS=
for w in $SETUPS; do
	k=$(kernel "$w")
	case " $KERNELS " in *" $k "*) ;; *) KERNELS="$KERNELS $k" ;; esac
done
for v in $KERNELS; do
	lab/build.sh "$v" || exit 1
done

say "user-space tools (bench/bin/)"
make -s -C bench bin/fairness bin/fairness.static bin/workload.static bin/cost \
	>"$LOGS/bench-tools.log" 2>&1 ||
	{ show_tail "$LOGS/bench-tools.log"; die "building bench tools failed"; }

# build/bench: symlinks to the kernels, its own initramfs and modules.
BB=$BUILD/bench
mkdir -p "$BB" "$LOGS"
ln -sfn ../linux "$BB/linux"
for v in $KERNELS; do
	ln -sfn "../kernel-$v" "$BB/kernel-$v"
	say "lockbench.ko for $v"
	ko=$(bench/scripts/build-lockbench.sh "$v" "$BB/lockbench-$v") || exit 1
	BUILD=$BB lab/initramfs.sh "$v" "$ko" bench/bin/fairness.static \
		bench/bin/workload.static || exit 1
done

# The host's locks: every lock the fairness tool knows (bench/lib/locks.h's
# list, then the user-space ones), in its order.
HOST_LOCKS=$(bench/bin/fairness -L | tr '\n' ' ')
[ -n "$HOST_LOCKS" ] || die "bench/bin/fairness -L listed no lock"

rm -rf "$OUT"
mkdir -p "$OUT/raw"
cat >"$OUT/raw/settings.txt" <<EOF
bench=2 date=$(date -u +%Y-%m-%dT%H:%MZ) image=$BENCH_IMAGE setups=$(echo $SETUPS | tr ' ' ,) smp=$(echo $BENCH_SMP | tr ' ' ,) boots=$BENCH_BOOTS rounds=$BENCH_ROUNDS pairs=$BENCH_PAIRS count=$BENCH_COUNT cap_ms=$BENCH_CAP_MS cs_lines=$BENCH_CS_LINES think=$BENCH_THINK fairness_n=$BENCH_FAIRNESS_N fairness_rounds=$BENCH_FAIRNESS_ROUNDS fairness_timeout=$BENCH_FAIRNESS_TIMEOUT host_n=$BENCH_HOST_N host_rounds=$BENCH_HOST_ROUNDS runs_n=$BENCH_RUNS_N runs_tries=$BENCH_RUNS_TRIES cost_runs=$BENCH_COST_RUNS workload_secs=$BENCH_WORKLOAD_SECS workload_rounds=$BENCH_WORKLOAD_ROUNDS skip_us=$BENCH_SKIP_US host_cpus=$NCPU host_locks=$(echo $HOST_LOCKS | tr ' ' ,)
host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
qemu=$(qemu-system-x86_64 --version | head -n 1)
kernel=$(git -C "$TREE" describe --tags --always 2>/dev/null) series=$(git -C "$TREE" log --oneline base..HEAD 2>/dev/null | wc -l) patches
lab=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes')
EOF

# lockbench twice a round: as spin_lock() takes a lock, then with
# interrupts off (as spin_lock_irq()), which keeps interrupts out of its
# waiter count; each load in a new random lock order.
args="count=$BENCH_COUNT,duration_ms=$BENCH_CAP_MS,cs_lines=$BENCH_CS_LINES,think=$BENCH_THINK,skip_us=$BENCH_SKIP_US"
append="lab.bench=1 lab.bench_shuffle=1 lab.bench_rounds=$BENCH_ROUNDS"
append="$append lab.bench_args=$args,irqsoff=0/$args,irqsoff=1"
append="$append lab.bench_fairness=-n,$BENCH_FAIRNESS_N,-c,$BENCH_CS_LINES,-w,$BENCH_THINK,-P,$BENCH_SKIP_US"
append="$append lab.bench_fairness_rounds=$BENCH_FAIRNESS_ROUNDS lab.bench_fairness_timeout=$BENCH_FAIRNESS_TIMEOUT"
append="$append lab.bench_workload=futex,open"
append="$append lab.bench_workload_secs=$BENCH_WORKLOAD_SECS lab.bench_workload_rounds=$BENCH_WORKLOAD_ROUNDS"
# Worst case per boot: every lockbench load capped (the module runs the
# locks of bench/lib/locks.h and spin_lock()), every fairness lock timed
# out, the workloads.
nlb=$(($(bench/bin/fairness -M | wc -l) + 1))
nhost=$(echo $HOST_LOCKS | wc -w)
timeout=$((180 + (2 * BENCH_ROUNDS * nlb + 3 * BENCH_PAIRS) * (BENCH_CAP_MS / 1000 + 2) +
	nhost * BENCH_FAIRNESS_ROUNDS * BENCH_FAIRNESS_TIMEOUT +
	2 * BENCH_WORKLOAD_ROUNDS * (BENCH_WORKLOAD_SECS + 1)))

nboots=$(($(echo $SETUPS | wc -w) * BENCH_BOOTS * $(echo $BENCH_SMP | wc -w)))
i=0 failed=0
b=1
while [ $b -le "$BENCH_BOOTS" ]; do
	for smp in $BENCH_SMP; do
		for setup in $SETUPS; do
			i=$((i + 1))
			cpu=qemu64 a=$append want=
			base=${setup#dedicated-}
			case $base in
			queued-native) cpu=qemu64,-hypervisor ;;
			skip) a="$a skipticket.patience_us=$BENCH_SKIP_US" ;;
			esac
			v=$(kernel "$setup")
			[ "$v" = combobench ] && case $setup in
			ticket) a="$a spinlock=ticket" want='FIFO ticket (spinlock=ticket)' ;;
			skip) want='skip-ticket (auto: guest without paravirt spinlocks)' ;;
			queued-guest) a="$a spinlock=queued" want='queued, test-and-set fallback (spinlock=queued)' ;;
			queued-native) want='queued (auto: no hypervisor)' ;;
			esac
			case $base in
			ticket | skip) [ "$smp" -gt "$NCPU" ] || a="$a lab.bench_pairs=$BENCH_PAIRS" ;;
			esac
			name=$setup-smp$smp-boot$b
			log=$OUT/raw/console-$name.log
			say "boot $i/$nboots: $setup ($v, -cpu $cpu) smp=$smp boot $b, up to ${timeout}s [$(elapsed)]"
			if ! out=$(BUILD=$BB lab/boot.sh -t "$timeout" -c "$cpu" -a "$a" "$v" "$smp" "$log" 2>&1); then
				echo "FAIL boot $name: $out" >&2
				show_tail "$log" 20
				failed=$((failed + 1))
			elif ! out=$(lab/check.sh boot "$log"); then
				echo "FAIL boot $name: $out" >&2
				failed=$((failed + 1))
			elif [ -n "$want" ] && ! out=$(lab/check.sh spinlock "$log" "$want"); then
				echo "FAIL boot $name, the lock chosen: $out" >&2
				failed=$((failed + 1))
			fi
			sed -n '/^LAB: bench begin/,/^LAB: bench end/p' "$log" |
				grep -a -E '^(lockbench=|lock=|cpu=|workload=|timeline=|LAB: bench)' \
				>"$OUT/raw/$name.txt"
			awk -v s="$setup" -v n="$smp" '
				/^lockbench=1 / { irq = $0; sub(/.* irqsoff=/, "", irq); sub(/ .*/, "", irq) }
				/^lock=.* impl=/ {
					delete v
					for (i = 1; i <= NF; i++) { p = index($i, "="); v[substr($i, 1, p - 1)] = substr($i, p + 1) }
					printf "  %s smp=%s irqsoff=%s %-8s %9.3f Macq/s, jain %s, bypasses %s, complete %s\n",
						s, n, irq, v["lock"], v["throughput"] / 1e6, v["jain"], v["bypasses"], v["complete"]
				}' "$OUT/raw/$name.txt" | head -n 8 >&2
		done
	done
	b=$((b + 1))
done

# ---- the host's real cores ------------------------------------------------
F=bench/bin/fairness
hf=$OUT/raw/host-fairness.txt
# host_run FILE LABEL ARGS...: one fairness run, its output tagged
host_run() {
	f=$1 label=$2
	shift 2
	echo "LAB: host $label" >>"$f"
	timeout -s KILL 120 "$F" -k -P "$BENCH_SKIP_US" "$@" >>"$f" 2>&1
	rc=$?
	[ $rc -eq 137 ] && echo "LAB: host timed out after 120s: $label" >>"$f"
	if [ $rc -ne 0 ]; then
		echo "FAIL fairness on the host, $label: exit $rc" >&2
		failed=$((failed + 1))
	fi
}
shuffled() { echo $HOST_LOCKS | tr ' ' '\n' | shuf | tr '\n' ' '; }

say "fairness on the host: $BENCH_HOST_ROUNDS rounds of -t $NCPU -n $BENCH_HOST_N [$(elapsed)]"
r=1
while [ $r -le "$BENCH_HOST_ROUNDS" ]; do
	for l in $(shuffled); do
		host_run "$hf" "round=$r lock=$l" -p -T 200 -t "$NCPU" -n "$BENCH_HOST_N" -l "$l" \
			-c "$BENCH_CS_LINES" -w "$BENCH_THINK"
	done
	r=$((r + 1))
done

# What the instrumentation costs: the same lock bare (-G: counts only),
# with the grant log (default) and with the grant log and wait timing (-p).
say "bookkeeping cost on the host [$(elapsed)]"
r=1
while [ $r -le "$BENCH_HOST_ROUNDS" ]; do
	for l in legacy ticket8 qspinlock; do
		for m in bare order timing; do
			case $m in bare) o=-G ;; order) o= ;; timing) o=-p ;; esac
			host_run "$OUT/raw/host-book.txt" "round=$r lock=$l mode=$m" $o -t "$NCPU" \
				-n "$BENCH_HOST_N" -l "$l" -c "$BENCH_CS_LINES" -w "$BENCH_THINK"
		done
	done
	r=$((r + 1))
done

# Threads against throughput, 1 .. host CPUs, bare.
say "thread sweep on the host [$(elapsed)]"
r=1
while [ $r -le 3 ]; do
	t=1
	while [ $t -le "$NCPU" ]; do
		for l in $(shuffled); do
			host_run "$OUT/raw/host-sweep.txt" "round=$r threads=$t lock=$l" -G -t "$t" \
				-n "$BENCH_HOST_N" -l "$l"
		done
		t=$((t * 2))
		[ $t -gt "$NCPU" ] && [ $((t / 2)) -lt "$NCPU" ] && t=$NCPU
	done
	r=$((r + 1))
done

# The seeds' "granted up to 1,000,000 times in a row": legacy, bare, long.
say "the seeds' long runs: legacy, -n $BENCH_RUNS_N, $BENCH_RUNS_TRIES tries [$(elapsed)]"
r=1
while [ $r -le "$BENCH_RUNS_TRIES" ]; do
	host_run "$OUT/raw/host-runs.txt" "round=$r lock=legacy" -G -t "$NCPU" -n "$BENCH_RUNS_N" -l legacy
	r=$((r + 1))
done

say "cost: uncontended, ping-pong, handoff [$(elapsed)]"
r=1
while [ $r -le "$BENCH_COST_RUNS" ]; do
	echo "LAB: host round=$r" >>"$OUT/raw/host-cost.txt"
	if ! bench/bin/cost -r 11 -n 200000 >>"$OUT/raw/host-cost.txt" 2>&1; then
		echo "FAIL cost on the host (run $r)" >&2
		failed=$((failed + 1))
	fi
	r=$((r + 1))
done

say "report [$(elapsed)]"
bench/scripts/report.sh "$OUT" || exit 1
say "done in $(elapsed): $OUT/report.md"
[ "$failed" -eq 0 ] || die "$failed check(s) failed (boots: see $OUT/raw/console-*.log)"
