#!/bin/sh
# Turn the raw data of bench/run.sh into DIR/report.md and DIR/*.png, and
# print the main tables. Reads DIR/raw/: settings.txt, SETUP-smpN.txt
# (lockbench, fairness and workload lines cut from a guest's console) and
# host-fairness.txt.
# Usage: bench/report.sh [DIR]   (default: results)
. "$(dirname "$0")/../lab/lib.sh"

dir=${1:-results}
raw=$dir/raw
[ -f "$raw/settings.txt" ] || die "no $raw/settings.txt: run make bench first"
cd "$dir" || exit 1
raw=raw
plot=$raw/plot
mkdir -p "$plot"

SETUPS="ticket queued-guest queued-native"
# rows of the main table: SETUP:LOCK
ROWS="ticket:legacy ticket:ticket8 ticket:ticket16 ticket:spinlock queued-guest:spinlock queued-native:spinlock"

setting() { sed -n '1p' "$raw/settings.txt" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
SMPS=$(setting smp | tr ',' ' ')
COUNT=$(setting count)
CAP_MS=$(setting cap_ms)

# lbset SETUP SMP [IRQSOFF]: the first lockbench set of that boot loaded
# with irqsoff=IRQSOFF (default 0): its header, lock= and cpu= lines
lbset() {
	awk -v want=" irqsoff=${3:-0} " '
		/^lockbench=1 / { cur = !done && index($0, want); done = done || cur }
		/^LAB: bench lockbench end/ { cur = 0 }
		cur && /^(lockbench|lock|cpu)=/ { print }
	' "$raw/$1-smp$2.txt" 2>/dev/null
}
# lbline SETUP SMP LOCK [IRQSOFF]: lockbench's line for LOCK in that set
lbline() { lbset "$1" "$2" "$4" | grep "^lock=$3 impl=" | head -n 1; }
# get LINE KEY
get() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }

label() {
	case $1 in
	ticket:spinlock) echo "spin_lock, ticket kernel" ;;
	queued-guest:spinlock) echo "spin_lock, queued kernel, guest" ;;
	queued-native:spinlock) echo "spin_lock, queued kernel, native" ;;
	*) echo "${1#*:}" ;;
	esac
}
short() {
	case $1 in
	ticket:spinlock) echo "spin:ticket" ;;
	queued-guest:spinlock) echo "spin:q-tas" ;;
	queued-native:spinlock) echo "spin:qspin" ;;
	*) echo "${1#*:}" ;;
	esac
}

# row SMP SETUP:LOCK: one markdown row of the main table
row() {
	l=$(lbline "${2%%:*}" "$1" "${2#*:}")
	if [ -z "$l" ]; then
		echo "| $(label "$2") | no data (see raw/console-${2%%:*}-smp$1.log) |||||||||||"
		return
	fi
	echo "$l" | awk -v name="$(label "$2")" -v count="$COUNT" -v cap="$CAP_MS" '{
		for (i = 1; i <= NF; i++) { p = index($i, "="); v[substr($i, 1, p - 1)] = substr($i, p + 1) }
		done = v["complete"] == 1 ? "yes" : \
			sprintf("capped at %g s (%.1f%%)", cap / 1000, 100 * v["total_acq"] / (count * v["threads"]))
		spread = v["complete"] == 1 ? v["spread"] : "n/a"
		printf "| %s (%s) | %#.4g | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			name, v["impl"], v["throughput"] / 1e6, v["jain"], v["acq_spread"], spread,
			v["wait_p50"], v["wait_p99"], v["wait_max"], v["longest_run"],
			v["uncontended_cycles"], done
	}'
}

main_table() {
	echo "| lock (implementation) | Macq/s | Jain | max/min acq | finish spread | wait p50 | wait p99 | wait max | longest run | uncontended lock+unlock | finished |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for r in $ROWS; do
		row "$1" "$r"
	done
}

# ---- plots --------------------------------------------------------------
GP_TERM=png
echo 'set terminal' | gnuplot 2>/dev/null | grep -q pngcairo && GP_TERM=pngcairo

# plot data: one line per row of the main table, one column per CPU
plot_data() {	# SMP KEY NORMALISE(max|min)
	for r in $ROWS; do
		s=${r%%:*} lock=${r#*:}
		printf '%s' "$(short "$r")"
		lbset "$s" "$1" | grep "^cpu=[0-9]* lock=$lock " |
			awk -v key="$2" -v norm="$3" '{
				for (i = 1; i <= NF; i++) { p = index($i, "="); if (substr($i, 1, p - 1) == key) x[NR] = substr($i, p + 1) + 0 }
				if (NR == 1 || (norm == "max" && x[NR] > ref) || (norm == "min" && x[NR] < ref)) ref = x[NR]
			} END { for (i = 1; i <= NR; i++) printf " %.6f", ref ? x[i] / ref : 0; if (!NR) printf " 0" }'
		echo
	done
}

plot_bars() {	# SMP DATA PNG TITLE YLABEL YRANGE
	ncol=$(awk '{ if (NF - 1 > n) n = NF - 1 } END { print n }' "$2")
	gnuplot <<EOF
set terminal $GP_TERM size 900,480
set output '$3'
set title "$4"
set ylabel "$5"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right top title "CPU"
set grid ytics
set yrange [${6:-0:*}]
plot for [i=2:$((ncol + 1))] '$2' using i:xtic(1) title sprintf("%d", i - 2)
EOF
}

plot_wait() {	# SMP PNG
	n=0
	for r in $ROWS; do
		n=$((n + 1))
		s=${r%%:*} lock=${r#*:}
		lbline "$s" "$1" "$lock" | tr ' ' '\n' | sed -n 's/^wait_hist=//p' | tr ',' '\n' |
			awk -F: -v name="$(short "$r")" '
				$1 != "-" { b[$1] = $2; t += $2 }
				END { print "# " name; for (k = 0; k < 64; k++) if (k in b) printf "%d %.4f\n", 2 ^ (k + 1) - 1, 100 * b[k] / t }
			' >"$plot/wait-smp$1-$n.dat"
	done
	{
		echo "set terminal $GP_TERM size 900,480"
		echo "set output '$2'"
		echo "set title \"wait per acquisition, $1 vCPUs (log2 buckets, TSC cycles)\""
		echo "set xlabel 'wait (cycles, bucket upper bound)'"
		echo "set ylabel '% of acquisitions (log)'"
		echo "set logscale y"
		echo "set yrange [0.0001:100]"
		echo "set logscale x 2"
		echo "set format x '2^{%L}'"
		echo "set grid"
		echo "set key outside right top"
		printf 'plot'
		n=0
		for r in $ROWS; do
			n=$((n + 1))
			[ $n -gt 1 ] && printf ','
			printf " '%s' using 1:2 with linespoints title '%s'" "$plot/wait-smp$1-$n.dat" "$(short "$r")"
		done
		echo
	} | gnuplot
}

for smp in $SMPS; do
	plot_data "$smp" acq_at_first max >"$plot/acq-smp$smp.dat"
	plot_bars "$smp" "$plot/acq-smp$smp.dat" "acquisitions-smp$smp.png" \
		"acquisitions of each CPU when the first finished, $smp vCPUs" \
		"fraction of the most (1 = fair)"
	plot_data "$smp" finish_ns min >"$plot/finish-smp$smp.dat"
	plot_bars "$smp" "$plot/finish-smp$smp.dat" "spread-smp$smp.png" \
		"finish time of each CPU, $smp vCPUs (capped runs all stop together)" \
		"finish time / earliest finish" "0.95:*"
	plot_wait "$smp" "wait-smp$smp.png"
done

# ---- checks against the targets ----------------------------------------
# mark COND: "met" or "missed"
mark() { if awk "BEGIN { exit !($1) }"; then echo met; else echo "**missed**"; fi; }

targets() {	# SMP
	smp=$1
	for r in ticket:ticket8 ticket:ticket16 ticket:spinlock; do
		l=$(lbline ticket "$smp" "${r#*:}")
		[ -n "$l" ] || continue
		acq=$(get "$l" acq_spread) j=$(get "$l" jain) sp=$(get "$l" spread)
		run=$(get "$l" longest_run) c=$(get "$l" complete)
		[ "$acq" = inf ] && acq=1e99
		[ "$c" = 1 ] && spm="$sp: $(mark "$sp <= 1.05")" || spm="n/a (run capped at $((CAP_MS / 1000)) s)"
		li=$(lbline ticket "$smp" "${r#*:}" 1)
		runi=$(get "$li" longest_run)
		[ -n "$runi" ] && runi="$runi: $(mark "$runi <= 2")" || runi="no data"
		byp=$(get "$l" bypasses) bypi=$(get "$li" bypasses)
		if [ -n "$byp" ] && [ -n "$bypi" ]; then
			byp="$byp, $bypi: $(mark "$byp == 0 && $bypi == 0")"
		else
			byp="n/a ($(get "$l" order))"
		fi
		echo "| $(label "$r") | $smp | $(get "$l" acq_spread): $(mark "$acq <= 1.02") | $j: $(mark "$j >= 0.999") | $spm | $run: $(mark "$run <= 2") | $runi | $(get "$l" fifo_breaks), $(get "$li" fifo_breaks) | $byp |"
	done
}

legacy_targets() {
	for smp in $SMPS; do
		l=$(lbline ticket "$smp" legacy)
		[ -n "$l" ] || continue
		run=$(get "$l" longest_run) sp=$(get "$l" spread)
		[ "$sp" = inf ] && sp=1e99
		echo "| legacy | $smp | $run: $(mark "$run >= 100000") | $(get "$l" spread): $(mark "$sp >= 1.1") |"
	done
}

uncontended() {
	echo "| boot | vCPUs | legacy | ticket8 | ticket16 | spin_lock | ticket16 / spin_lock |"
	echo "|---|---|---|---|---|---|---|"
	for smp in $SMPS; do
		for s in $SETUPS; do
			u=
			for lock in legacy ticket8 ticket16 spinlock; do
				u="$u $(get "$(lbline "$s" "$smp" "$lock")" uncontended_cycles)"
			done
			set -- $u
			[ $# -eq 4 ] || continue
			impl=$(get "$(lbline "$s" "$smp" spinlock)" impl)
			ratio=$(awk -v a="$3" -v b="$4" 'BEGIN { printf "%.3f", a / b }')
			verdict=
			case $impl in qspinlock*) verdict=": $(mark "$ratio <= 1.05")" ;; esac
			echo "| $s ($impl) | $smp | $1 | $2 | $3 | $4 | $ratio$verdict |"
		done
	done
}

wait_bound() {
	echo "| lock | vCPUs | wait p99 (log2 bucket) | cs_avg | handoff p50 | bound (N-1)(cs+handoff) | verdict |"
	echo "|---|---|---|---|---|---|---|"
	for smp in $SMPS; do
		for r in ticket:ticket8 ticket:ticket16 ticket:spinlock; do
			l=$(lbline ticket "$smp" "${r#*:}")
			[ -n "$l" ] || continue
			echo "$l" | awk -v name="$(label "$r")" -v n="$smp" '{
				for (i = 1; i <= NF; i++) { p = index($i, "="); v[substr($i, 1, p - 1)] = substr($i, p + 1) }
				hi = v["wait_p99"] + 0; lo = (hi + 1) / 2
				b = (n - 1) * (v["cs_avg"] + v["handoff_p50"])
				verdict = hi <= b ? "met" : (lo > b ? "**missed**" : "inconclusive (bound inside the bucket)")
				printf "| %s | %d | %d..%d | %d | %d | %d | %s |\n", name, n, lo, hi, v["cs_avg"], v["handoff_p50"], b, verdict
			}'
		done
	done
}

# ratio SETUP_A SETUP_B SMP LOCK_A LOCK_B: throughput A / B
tput() { get "$(lbline "$1" "$2" "$3")" throughput; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.3g", a / b }'; }

costs() {
	for smp in $SMPS; do
		t16=$(tput ticket "$smp" ticket16) leg=$(tput ticket "$smp" legacy)
		tsp=$(tput ticket "$smp" spinlock) tas=$(tput queued-guest "$smp" spinlock)
		nat=$(tput queued-native "$smp" spinlock)
		echo "- $smp vCPUs: ticket16 runs at $(ratio "$t16" "$leg")x the legacy lock's throughput" \
			"($(awk -v a="$t16" 'BEGIN { printf "%#.4g", a / 1e6 }') against $(awk -v a="$leg" 'BEGIN { printf "%#.4g", a / 1e6 }') Macq/s);" \
			"the ticket kernel's spin_lock at $(ratio "$tsp" "$tas")x the guest qspinlock (test-and-set)" \
			"and $(ratio "$tsp" "$nat")x native qspinlock."
	done
	set -- $SMPS
	if [ $# -ge 2 ]; then
		lo=$1 hi=$2
		for x in $SMPS; do [ "$x" -lt "$lo" ] && lo=$x; [ "$x" -gt "$hi" ] && hi=$x; done
		echo "- From $lo to $hi vCPUs on $(setting host_cpus) host CPUs, throughput changes by:" \
			"legacy $(ratio "$(tput ticket "$hi" legacy)" "$(tput ticket "$lo" legacy)")x," \
			"ticket8 $(ratio "$(tput ticket "$hi" ticket8)" "$(tput ticket "$lo" ticket8)")x," \
			"ticket16 $(ratio "$(tput ticket "$hi" ticket16)" "$(tput ticket "$lo" ticket16)")x," \
			"spin_lock on the ticket kernel $(ratio "$(tput ticket "$hi" spinlock)" "$(tput ticket "$lo" spinlock)")x," \
			"guest qspinlock (test-and-set) $(ratio "$(tput queued-guest "$hi" spinlock)" "$(tput queued-guest "$lo" spinlock)")x," \
			"native qspinlock $(ratio "$(tput queued-native "$hi" spinlock)" "$(tput queued-native "$lo" spinlock)")x."
	fi
}

workload_table() {
	echo "| vCPUs | workload | ticket kernel ops/s | queued, guest (TAS) ops/s | queued, native ops/s | ticket / queued guest | ticket / queued native | Jain (ticket, guest, native) |"
	echo "|---|---|---|---|---|---|---|---|"
	for smp in $SMPS; do
		for m in futex open; do
			o='' j=''
			for s in $SETUPS; do
				# the best round: interference only ever slows a run down
				w=$(grep "^workload=$m " "$raw/$s-smp$smp.txt" 2>/dev/null |
					awk '{ x = $0; sub(/.* ops_per_sec=/, "", x); sub(/ .*/, "", x)
						if (x + 0 >= best) { best = x + 0; line = $0 } } END { print line }')
				o="$o $(get "$w" ops_per_sec)" j="$j $(get "$w" jain)"
			done
			set -- $o
			[ $# -eq 3 ] || { echo "| $smp | $m | incomplete data ||||||"; continue; }
			echo "| $smp | $m | $1 | $2 | $3 | $(ratio "$1" "$2") | $(ratio "$1" "$3") | $(echo $j | sed 's/ /, /g') |"
		done
	done
}

fairness_table() {	# FILE...
	echo "| where | lock | Macq/s | finish spread | Jain | acq min | acq max | longest run | bypasses (share) | bypass run | ticket breaks | wait p50 | wait p99 |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for f in "$@"; do
		where=$(basename "$f" .txt)
		grep '^lock=.* iters=' "$f" 2>/dev/null | awk -v w="$where" '{
			split("", v)
			for (i = 1; i <= NF; i++) { p = index($i, "="); v[substr($i, 1, p - 1)] = substr($i, p + 1) }
			byp = v["order"] == "ok" ? v["bypasses"] " (" v["bypass_share"] ")" : "-"
			printf "| %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w, v["lock"],
				v["throughput"] / 1e6, v["spread"], v["jain"], v["acq_min"], v["acq_max"],
				v["longest_run"], byp, v["order"] == "ok" ? v["bypass_run"] : "-",
				v["ticket_breaks"] != "" ? v["ticket_breaks"] : "-", v["wait_p50"], v["wait_p99"]
		}'
		grep '^LAB: bench fairness .* \(timed out\|failed\)' "$f" 2>/dev/null |
			sed "s/^LAB: bench fairness \([^ ]*\) \(.*\)/| $where | \1 | \2 |||||||||||/"
	done
}

all_runs() {
	echo "| boot | vCPUs | irqs off | lock | impl | Macq/s | Jain | max/min acq | spread | wait p50/p99/max | cs_avg | handoff p50 | longest run | fifo_breaks | bypasses (max, run) | uncontended | complete | counter |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	for smp in $SMPS; do
		for s in $SETUPS; do
			awk -v s="$s" -v n="$smp" '
				/^lockbench=1 / { irq = $0; sub(/.* irqsoff=/, "", irq); sub(/ .*/, "", irq) }
				/^LAB: bench lockbench end/ { irq = "" }
				/^lock=.* impl=/ && irq != "" {
					split("", v)
					for (i = 1; i <= NF; i++) { p = index($i, "="); v[substr($i, 1, p - 1)] = substr($i, p + 1) }
					byp = v["order"] == "ok" ? v["bypasses"] " (" v["bypass_max"] ", " v["bypass_run"] ")" : "-"
					printf "| %s | %s | %s | %s | %s | %#.4g | %s | %s | %s | %s/%s/%s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
						s, n, irq, v["lock"], v["impl"], v["throughput"] / 1e6, v["jain"], v["acq_spread"],
						v["spread"], v["wait_p50"], v["wait_p99"], v["wait_max"], v["cs_avg"],
						v["handoff_p50"], v["longest_run"], v["fifo_breaks"], byp, v["uncontended_cycles"],
						v["complete"], v["counter"]
				}' "$raw/$s-smp$smp.txt" 2>/dev/null
		done
	done
}

# ---- report.md -----------------------------------------------------------
{
	echo "# Spinlock benchmark"
	echo
	echo "Written by \`make bench\` (bench/run.sh, bench/report.sh) on $(setting date)."
	echo "Host: $(sed -n 's/^host_cpu=//p' "$raw/settings.txt"), $(setting host_cpus) CPUs;" \
		"$(sed -n 's/^qemu=//p' "$raw/settings.txt"), TCG, multi-threaded."
	echo "lockbench: $COUNT acquisitions per CPU and lock, capped at $((CAP_MS / 1000)) s;" \
		"$(setting cs_lines) cache line(s) written per critical section; think time $(setting think) PAUSEs."
	echo "Kernels: \`bigticket\` (FIFO ticket spinlock_t, 16-bit tickets) and \`queued\` (qspinlock), no lock debugging."
	echo
	echo "Times (wait, uncontended) are TSC cycles as the guest reads them; under TCG they are"
	echo "the host's TSC, so they measure emulated code, not what the instructions cost on"
	echo "hardware. Ratios between locks in one boot are the meaningful part."
	echo
	echo "How to read it: **Macq/s** over the contended phase, the grants all CPUs had made when"
	echo "the first one finished over its finish time (the tail, in which fewer CPUs contend, is"
	echo "left out: it flatters a lock that lets one CPU finish early; \`throughput_all\` in raw/"
	echo "has it); **Jain** of the acquisitions each CPU had when the first CPU finished"
	echo "(1 = equal); **max/min acq** of the same counts; **finish spread** = latest / earliest"
	echo "finish; **longest run** = most consecutive grants to one CPU while another CPU was"
	echo "waiting (a CPU counts as waiting from just before it calls lock until it holds the"
	echo "lock); wait percentiles are log2-bucket upper bounds, wait max is exact. A run stopped"
	echo "at the cap reports counts at the stop and no finish spread."
	for smp in $SMPS; do
		echo
		echo "## $smp vCPUs"
		echo
		main_table "$smp"
		echo
		echo "![acquisitions per CPU](acquisitions-smp$smp.png)"
		echo "![wait-time distribution](wait-smp$smp.png)"
		echo "![finish-time spread](spread-smp$smp.png)"
	done
	echo
	echo "## Targets"
	echo
	echo "FIFO ticket locks, all CPUs contending (targets: max/min <= 1.02, Jain >= 0.999, spread <= 1.05, longest run <= 2, bypasses 0 exactly; no bypass figure for spin_lock(), which cannot be split):"
	echo
	echo "| lock | vCPUs | max/min acq | Jain | finish spread | longest run | longest run, irqs off | fifo_breaks (irqs on, off) | bypasses (irqs on, off; target 0) |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for smp in $SMPS; do targets "$smp"; done
	echo
	echo "\`longest run\` counts a CPU as waiting from just before its lock call: a vCPU stopped"
	echo "between that point and its \`lock xadd\` (a guest interrupt with irqs on; the host or"
	echo "QEMU not running the vCPU thread, either way) looks like a waiter the lock passes over,"
	echo "and the other CPU then takes the lock alone for as long as the stop lasts. \`fifo_breaks\`"
	echo "is the exact check, from the lock word itself: grants to the previous owner although"
	echo "the lock showed another ticket taken at its unlock. 0 means no waiter holding a ticket"
	echo "was ever passed over."
	echo
	echo "Legacy lock, same boots (expected: runs >= 10^5, spread >= 1.1):"
	echo
	echo "| lock | vCPUs | longest run | finish spread |"
	echo "|---|---|---|---|"
	legacy_targets
	echo
	echo "Uncontended lock+unlock, cycles per pair, one CPU, same boot (target: ticket <= 1.05x"
	echo "the kernel's qspinlock fast path; each is one call to an out-of-line lock, as spin_lock() is):"
	echo
	uncontended
	echo
	echo "Ticket p99 wait against (N-1) x (critical section + handoff), measured in the same run"
	echo "(mean critical section; handoff p50 and wait p99 are log2-bucket upper bounds, so the"
	echo "wait is given as its bucket and the verdict is inconclusive when the bound falls inside it):"
	echo
	wait_bound
	echo
	echo "## Costs"
	echo
	costs
	echo
	echo "FIFO handoff passes the lock to the CPU that has waited longest, which must first pull"
	echo "the lock's cache line over, while an unfair lock is mostly re-taken by the CPU that"
	echo "just released it and still holds the line. And when vCPUs outnumber host CPUs, the"
	echo "next ticket often belongs to a vCPU the host is not running: every CPU then waits for"
	echo "the host to schedule that vCPU (lock-waiter preemption), and a FIFO lock's throughput"
	echo "collapses; native qspinlock, whose MCS queue is FIFO too, collapses the same way."
	echo "The test-and-set lock of a guest qspinlock (virt_spin_lock()) simply goes to whichever"
	echo "vCPU runs: that is why 6.12 falls back to it in guests without pv spinlocks."
	echo
	echo "## Whole-kernel workload"
	echo
	echo "\`workload\` in the guest, one thread per vCPU, best of $(setting workload_rounds) runs of $(setting workload_secs) s:"
	echo "\`futex\` = FUTEX_WAIT with a mismatching value on one word (one futex hash-bucket"
	echo "spinlock per call); \`open\` = open+close of one file with a shared fd table"
	echo "(files->file_lock, the dentry's lockref)."
	echo
	workload_table
	echo
	echo "## fairness (userspace, bench/fairness.c)"
	echo
	echo "On the host (-t $(setting host_cpus) -n $(setting host_n)) and in the guests (-t vCPUs -n $(setting fairness_n), at most $(setting fairness_timeout) s per lock):"
	echo
	files=$raw/host-fairness.txt
	for smp in $SMPS; do for s in $SETUPS; do files="$files $raw/$s-smp$smp.txt"; done; done
	fairness_table $files
	echo
	echo "Bypasses are exact grant-order figures (bench/fairness.c, \"Grant order\"): a grant that"
	echo "passed over a thread the lock had already refused before the grantee first tried; a"
	echo "FIFO lock shows 0, and a ticket lock's grants also take its tickets in order (ticket"
	echo "breaks 0). \"longest run\" is the older measure: grants in a row to one thread while"
	echo "another had not finished, whether or not it was waiting yet."
	echo
	echo "## Every lockbench run"
	echo
	all_runs
	echo
	echo "Raw data: \`raw/\` (key=value lines as the guests printed them; format in bench/README.md),"
	echo "console logs \`raw/console-*.log\`, plot data \`raw/plot/\`."
} >report.md

for smp in $SMPS; do
	echo
	echo "lockbench, $smp vCPUs ($COUNT acquisitions per CPU; wait in TSC cycles):"
	main_table "$smp" | sed '2d' | awk -F'|' '{
		printf "%-50s", $2
		for (i = 3; i < NF; i++) { gsub(/^ +| +$/, "", $i); printf " %s |", $i }
		printf "\n"
	}'
done
echo
echo "workload (ops/s):"
workload_table | sed '2d' | awk -F'|' '{ for (i = 2; i < NF; i++) { gsub(/^ +| +$/, "", $i); printf "%s |", $i } printf "\n" }'
