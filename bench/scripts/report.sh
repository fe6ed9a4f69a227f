#!/bin/sh
# Turn the raw data of bench/scripts/run.sh into DIR/report.md and DIR/*.png,
# and print the targets. Reads DIR/raw/ (settings.txt, the guests'
# SETUP-smpN-bootB.txt, the host's host-*.txt), writes DIR/raw/samples.tsv
# (samples.awk: one sample per line) and DIR/raw/summary.tsv (stats.awk:
# median, 95% interval and max of every figure), then the report from those.
# Usage: bench/scripts/report.sh [DIR]   (default: results)
LAB=${LAB:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$LAB/lab/lib.sh"
here=$LAB/bench/scripts

dir=${1:-results}
[ -f "$dir/raw/settings.txt" ] || die "no $dir/raw/settings.txt: run make bench first"
cd "$dir" || exit 1
plot=raw/plot
mkdir -p "$plot"
: >"$plot/gnuplot.log"

setting() { sed -n '1p' raw/settings.txt | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(setting bench)" = 2 ] || die "$dir was written by an older make bench (bench=$(setting bench)): run make bench again"
SMPS=$(setting smp | tr ',' ' ')
HOSTN=$(setting host_cpus)
DATE=$(setting date)
SETUPS=$(setting setups | tr ',' ' ')
IMAGE=$(setting image)
[ -n "$SETUPS" ] || SETUPS="ticket skip queued-guest queued-native"
[ -n "$IMAGE" ] || IMAGE=dedicated

# Both files start with a header row naming their columns (documented in
# samples.awk and stats.awk, and in docs/benchmark.md, "Data files").
{
	printf 'src\twhere\tsmp\tirq\tlock\tmetric\tvalue\trun\n'
	awk -v host_cpus="$HOSTN" -f "$here/samples.awk" $(ls raw/*.txt | grep -v settings.txt)
} >raw/samples.tsv || die "samples.awk failed"
{
	printf 'src\twhere\tsmp\tirq\tlock\tmetric\tn\tmedian\tlo\thi\tcover\tmax\n'
	awk -f "$here/stats.awk" raw/samples.tsv | sort
} >raw/summary.tsv || die "stats.awk failed"

# The locks, in the tools' own order: the host's from fairness -L (run.sh
# writes them to settings.txt), the module's from lockbench's known= (its
# header line), the cost tool's from its output. Runs older than those
# fields get the list of their day.
HOST_LOCKS=$(setting host_locks | tr ',' ' ')
[ -n "$HOST_LOCKS" ] || HOST_LOCKS="legacy ticket8 ticket16 skipticket qspinlock pthread_spin pthread_mutex"
LB_KNOWN=$(cat raw/*-smp*-boot*.txt 2>/dev/null | tr -d '\r' | grep -a -o -m 1 ' known=[^ ]*' | head -n 1 | sed 's/^ known=//' | tr ',' ' ')
[ -n "$LB_KNOWN" ] || LB_KNOWN="legacy ticket8 ticket16 skipticket spinlock"
LB_LOCKS=$(echo $LB_KNOWN | tr ' ' '\n' | grep -vx spinlock | tr '\n' ' ')
COST_LOCKS=$(sed -n 's/^cost=uncontended lock=\([^ ]*\) .*/\1/p' raw/host-cost.txt 2>/dev/null | awk '!seen[$0]++' | tr '\n' ' ')

# q SRC WHERE SMP IRQ LOCK METRIC: "n median lo hi cover max", or nothing
q() {
	awk -F'\t' -v k="$1	$2	$3	$4	$5	$6" '
		index($0, k "\t") == 1 { print $7, $8, $9, $10, $11, $12; exit }' raw/summary.tsv
}
# f SRC WHERE SMP IRQ LOCK METRIC [SCALE] [DIGITS]: "median [lo, hi]"
# (values / SCALE, DIGITS significant digits), "-" without data
f() {
	q "$1" "$2" "$3" "$4" "$5" "$6" | awk -v s="${7:-1}" -v d="${8:-4}" '{
		fmt = "%." d "g"
		if ($1 == 1) printf fmt " (1 run)", $2 / s
		else if ($3 == $4) printf fmt " [all %d]", $2 / s, $1
		else printf fmt " [" fmt ", " fmt "]", $2 / s, $3 / s, $4 / s
		found = 1
	} END { if (!found) printf "-" }'
}
# field SRC WHERE SMP IRQ LOCK METRIC N: the Nth of "n median lo hi cover max"
field() { q "$1" "$2" "$3" "$4" "$5" "$6" | awk -v i="$7" '{ print $i }'; }
# mark COND: "met" or "**missed**" (awk expression); "no data" if it has none
mark() {
	case $1 in *'  '* | '' | *'( '* | *' )'*) echo "no data"; return ;; esac
	if awk "BEGIN { exit !($1) }" 2>/dev/null; then echo met; else echo "**missed**"; fi
}

# kname SETUP: the kernel and choice a setting boots
kname() {
	case $IMAGE:$1 in
	one:ticket) echo "one image, spinlock=ticket" ;;
	one:skip) echo "one image, automatic (skip-ticket)" ;;
	one:queued-guest) echo "one image, spinlock=queued (guest: test-and-set)" ;;
	one:queued-native) echo "one image, automatic on bare metal (qspinlock)" ;;
	*:ticket | *:dedicated-ticket) echo "ticket kernel" ;;
	*:skip | *:dedicated-skip) echo "skip-ticket kernel" ;;
	*:queued-guest | *:dedicated-queued-guest) echo "queued kernel as a guest (virt_spin_lock test-and-set)" ;;
	*:queued-native | *:dedicated-queued-native) echo "queued kernel, native qspinlock" ;;
	*) echo "$1" ;;
	esac
}
label() {
	case $1 in
	*:spinlock) echo "spin_lock(), $(kname "${1%%:*}")" ;;
	*) echo "${1#*:} (module, ${1%%:*} setting)" ;;
	esac
}
short() {
	case $1 in
	ticket:spinlock) echo "spin:ticket" ;;
	skip:spinlock) echo "spin:skip" ;;
	queued-guest:spinlock) echo "spin:q-tas" ;;
	queued-native:spinlock) echo "spin:qspin" ;;
	*) echo "${1#*:}" ;;
	esac
}
# rows of the lockbench tables: SETUP:LOCK (the module's own locks from the
# ticket kernel's boots; spin_lock() from every kernel)
ROWS="$(for l in $LB_LOCKS; do printf 'ticket:%s ' "$l"; done)ticket:spinlock skip:spinlock queued-guest:spinlock queued-native:spinlock"

# ---- plots ----------------------------------------------------------------
GP_TERM=png
echo 'set terminal' | gnuplot 2>/dev/null | grep -q pngcairo && GP_TERM=pngcairo
gp() { { echo "set terminal $GP_TERM size 960,520"; cat; } | gnuplot 2>>raw/plot/gnuplot.log; }
SRC_G="make bench $DATE, TCG guests"
SRC_H="make bench $DATE, host ($HOSTN real CPUs)"

# (a) absolute per-CPU acquisitions at the first finish, irqs off, median
# and interval over boots x rounds
for smp in $SMPS; do
	d=$plot/acq-smp$smp.dat
	: >"$d"
	x=0
	for r in $ROWS; do
		c=0
		while [ $c -lt "$smp" ]; do
			s=$(q lb "${r%%:*}" "$smp" 1 "${r#*:}" "acq_at_first.cpu$c")
			[ -n "$s" ] && echo "$(awk -v x=$x -v c=$c -v n="$smp" 'BEGIN { printf "%.3f", x + (c - (n - 1) / 2) * 0.8 / n }') $s $(short "$r") $c" >>"$d"
			c=$((c + 1))
		done
		x=$((x + 1))
	done
	xt=$(i=0; for r in $ROWS; do printf '%s"%s" %d' "$([ $i -gt 0 ] && echo ,)" "$(short "$r")" $i; i=$((i + 1)); done)
	gp <<EOF
set output 'acquisitions-smp$smp.png'
set title "Acquisitions of each CPU when the first CPU finished, $smp vCPUs, irqs off\n(median and 95% interval over boots x rounds; $SRC_G)"
set ylabel 'acquisitions at the first finish'
set xlabel 'lock (one bar per CPU)'
set xtics ($xt)
set xrange [-0.6:$(echo $ROWS | wc -w)-0.4]
set yrange [0:*]
set grid ytics
set boxwidth $(awk -v n="$smp" 'BEGIN { print 0.75 / n }')
set style fill solid 0.6 border -1
plot '$d' using 1:3 with boxes notitle lc rgb '#4477aa', '' using 1:3:4:5 with yerrorbars notitle lc rgb 'black' pt 0
EOF
done

# (b) wait-time CDF, log x axis: lockbench's wait histograms (irqs off)
# summed over all boots and rounds
for smp in $SMPS; do
	cmd="set output 'wait-cdf-smp$smp.png'
set title \"Wait per acquisition, CDF, $smp vCPUs, irqs off (all boots x rounds; $SRC_G)\"
set xlabel 'wait (TSC cycles of emulated code, log2 bucket upper bound)'
set ylabel 'fraction of acquisitions waiting at most x'
set logscale x 2
set format x '2^{%L}'
set yrange [0:1.02]
set grid
set key bottom right
plot"
	n=0 sep=
	for r in $ROWS; do
		n=$((n + 1))
		d=$plot/wait-smp$smp-$n.dat
		awk -F'\t' -v w="${r%%:*}" -v n="$smp" -v l="${r#*:}" '
			$1 == "lb" && $2 == w && $3 == n && $4 == 1 && $5 == l && $6 == "wait_hist" && $7 != "-" {
				m = split($7, b, ",")
				for (i = 1; i <= m; i++) { split(b[i], p, ":"); c[p[1]] += p[2]; t += p[2] }
			}
			END { for (k = 0; k < 64; k++) if (k in c) { s += c[k]; printf "%d %.6f\n", 2 ^ (k + 1) - 1, s / t } }' \
			raw/samples.tsv >"$d"
		[ -s "$d" ] || continue
		cmd="$cmd$sep '$d' using 1:2 with steps title '$(short "$r")' noenhanced"
		sep=,
	done
	[ -n "$sep" ] && printf '%s\n' "$cmd" | gp
done

# (c) bypasses per wait: how many grants passed over a waiter, host
# fairness (all rounds) and lockbench at each vCPU count (irqs off)
bypass_plot() {	# SRC WHERE SMP IRQ PNG TITLE
	cmd="set output '$5'
set title \"$6\"
set xlabel 'grants that passed over one waiter in its wait (log2 bucket lower bound)'
set ylabel 'waiters'
set logscale xy
set grid
set key top right
plot"
	sep=
	for l in $HOST_LOCKS $(echo $LB_LOCKS spinlock | tr ' ' '\n' | grep -vxF "$(echo $HOST_LOCKS | tr ' ' '\n')"); do
		d=$plot/bypass-$1-$3-$l.dat
		awk -F'\t' -v s="$1" -v w="$2" -v n="$3" -v i="$4" -v l="$l" '
			$1 == s && $2 == w && $3 == n && $4 == i && $5 == l && $6 == "bypass_hist" && $7 != "-" {
				m = split($7, b, ",")
				for (j = 1; j <= m; j++) { split(b[j], p, ":"); c[p[1]] += p[2] }
			}
			END { for (k = 0; k < 64; k++) if (k in c) printf "%d %d\n", 2 ^ k, c[k] }' raw/samples.tsv >"$d"
		[ -s "$d" ] || continue
		cmd="$cmd$sep '$d' using 1:2 with linespoints title '$l' noenhanced"
		sep=,
	done
	[ -n "$sep" ] && printf '%s\n' "$cmd" | gp
}
bypass_plot hf host "$HOSTN" - bypasses-host.png \
	"Waiters passed over, by how many grants, fairness -t $HOSTN, all rounds (FIFO locks: none)\\n($SRC_H)"
for smp in $SMPS; do
	bypass_plot lb ticket "$smp" 1 "bypasses-smp$smp.png" \
		"Waiters passed over, by how many grants, lockbench $smp vCPUs, irqs off, ticket setting (FIFO: none)\\n($SRC_G)"
done

# (d) throughput against threads (host) and vCPUs (guests)
cmd="set output 'throughput-threads-host.png'
set title \"Throughput against threads, fairness -G (median and 95% interval)\\n($SRC_H)\"
set xlabel 'threads (one per CPU)'
set ylabel 'acquisitions per second (contended phase)'
set logscale y
set grid
set key outside right
set xtics 1
plot"
sep=
for l in $HOST_LOCKS; do
	d=$plot/sweep-$l.dat
	awk -F'\t' -v l="$l" '$1 == "sw" && $5 == l && $6 == "throughput" { print $3, $8, $9, $10 }' raw/summary.tsv |
		sort -n >"$d"
	[ -s "$d" ] || continue
	cmd="$cmd$sep '$d' using 1:2:3:4 with yerrorlines title '$l' noenhanced"
	sep=,
done
[ -n "$sep" ] && printf '%s\n' "$cmd" | gp
cmd="set output 'throughput-vcpus.png'
set title \"Throughput against vCPUs on $HOSTN host CPUs, lockbench irqs off (median and 95% interval)\\n(right of the line: overcommitted; $SRC_G)\"
set xlabel 'vCPUs'
set ylabel 'acquisitions per second (contended phase)'
set logscale y
set grid
set key outside right
set arrow from $HOSTN.5, graph 0 to $HOSTN.5, graph 1 nohead dt 2
plot"
sep=
for r in $ROWS; do
	d=$plot/vcpus-$(short "$r" | tr ':' '-').dat
	awk -F'\t' -v w="${r%%:*}" -v l="${r#*:}" '$1 == "lb" && $2 == w && $4 == 1 && $5 == l && $6 == "throughput" { print $3, $8, $9, $10 }' \
		raw/summary.tsv | sort -n >"$d"
	[ -s "$d" ] || continue
	cmd="$cmd$sep '$d' using 1:2:3:4 with yerrorlines title '$(short "$r")' noenhanced"
	sep=,
done
[ -n "$sep" ] && printf '%s\n' "$cmd" | gp

# (e) the seeds' claim as a picture: who took 200 consecutive grants,
# legacy against ticket8, host fairness round 1
tl() {	# LOCK DAT
	awk -F'\t' -v l="$1" '$1 == "hf" && $5 == l && $6 == "timeline" && $8 == "r1" {
		m = split($7, w, ","); for (i = 1; i <= m; i++) print i, w[i]; exit }' raw/samples.tsv >"$2"
}
tl legacy "$plot/timeline-legacy.dat"
tl ticket8 "$plot/timeline-ticket8.dat"
if [ -s "$plot/timeline-legacy.dat" ] && [ -s "$plot/timeline-ticket8.dat" ]; then
	gp <<EOF
set output 'timeline-host.png'
set multiplot layout 2,1 title "Who got the lock: 200 consecutive grants from the middle of the contended phase\n(fairness -t $HOSTN round 1; $SRC_H)"
set xlabel 'grant'
set ylabel 'thread'
set yrange [-0.5:$HOSTN-0.5]
set ytics 1
set xrange [0:201]
set title 'legacy (2.6.24 decrement lock)'
plot '$plot/timeline-legacy.dat' using 1:2 with impulses lw 2 notitle, '' using 1:2 with points pt 7 ps 0.5 notitle
set title "ticket8 (the series' ticket lock)"
plot '$plot/timeline-ticket8.dat' using 1:2 with impulses lw 2 notitle, '' using 1:2 with points pt 7 ps 0.5 notitle
unset multiplot
EOF
fi

# ---- tables -----------------------------------------------------------------
lb_table() {	# SMP IRQ
	echo "| lock | Macq/s | Jain | max/min acq | finish spread | bypasses (max of runs) | longest run | wait p99 (cycles) | uncontended lock+unlock (cycles) | runs complete |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for r in $ROWS; do
		w=${r%%:*} l=${r#*:}
		byp=$(field lb "$w" "$1" "$2" "$l" bypasses 6)
		[ -n "$byp" ] || byp="n/a"
		comp=$(awk -F'\t' -v w="$w" -v n="$1" -v i="$2" -v l="$l" '
			$1 == "lb" && $2 == w && $3 == n && $4 == i && $5 == l && $6 == "complete" { t++; c += $7 }
			END { if (t) printf "%d of %d", c, t; else printf "-" }' raw/samples.tsv)
		echo "| $(label "$r") | $(f lb "$w" "$1" "$2" "$l" throughput 1e6 3) | $(f lb "$w" "$1" "$2" "$l" jain 1 4) | $(f lb "$w" "$1" "$2" "$l" acq_spread 1 4) | $(f lb "$w" "$1" "$2" "$l" spread 1 4) | $byp | $(f lb "$w" "$1" "$2" "$l" longest_run 1 3) | $(f lb "$w" "$1" "$2" "$l" wait_p99 1 3) | $(f lb "$w" "$1" "$2" "$l" uncontended_cycles 1 3) | $comp |"
	done
}

fair_table() {	# SRC WHERE SMP
	echo "| lock | Macq/s | Jain | max/min acq | finish spread | bypasses (max of runs) | bypass share | longest run | ticket breaks (max) | wait p99 (cycles) | timed out |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for l in $HOST_LOCKS; do
		to=$(awk -F'\t' -v s="$1" -v w="$2" -v n="$3" -v l="$l" '$1 == s && $2 == w && $3 == n && $5 == l && $6 == "timed_out" { c++ } END { print c + 0 }' raw/samples.tsv)
		tb=$(field "$1" "$2" "$3" - "$l" ticket_breaks 6)
		echo "| $l | $(f "$1" "$2" "$3" - "$l" throughput 1e6 3) | $(f "$1" "$2" "$3" - "$l" jain 1 4) | $(f "$1" "$2" "$3" - "$l" acq_spread 1 4) | $(f "$1" "$2" "$3" - "$l" spread 1 4) | $(field "$1" "$2" "$3" - "$l" bypasses 6) | $(f "$1" "$2" "$3" - "$l" bypass_share 1 3) | $(f "$1" "$2" "$3" - "$l" longest_run 1 3) | ${tb:--} | $(f "$1" "$2" "$3" - "$l" wait_p99 1 3) | $to |"
	done
}

# The targets: bench/targets.tsv, one line each (name, the statistic it is
# judged on, the test, the row's text, why), read here and nowhere else.
TARGETS=$LAB/bench/targets.tsv
[ -f "$TARGETS" ] || die "no $TARGETS"
awk -F'\t' 'NR > 1 && (NF != 5 || $2 !~ /^(lo|hi|median|max|within)$/) {
	printf "bench/targets.tsv line %d: expected 5 tab-separated fields, judged on lo, hi, median, max or within\n", NR; bad = 1
} END { exit bad }' "$TARGETS" >&2 || die "bad bench/targets.tsv"
# trow NAME FIGURE STATS [KEY=VALUE...]: one row of the Targets table.
# STATS is "n median lo hi cover max" (q's output; "-" or empty where
# unknown; for "within": the median tested against lo and hi); the
# target's line says which of them is judged and how, the row's text
# ({KEY} replaced by VALUE) and why.
trow() {
	_t=$(awk -F'\t' -v n="$1" 'NR > 1 && $1 == n { print; exit }' "$TARGETS")
	[ -n "$_t" ] || die "bench/targets.tsv has no target '$1'"
	_judged=$(printf '%s\n' "$_t" | cut -f2) _test=$(printf '%s\n' "$_t" | cut -f3)
	_text=$(printf '%s\n' "$_t" | cut -f4) _why=$(printf '%s\n' "$_t" | cut -f5)
	_fig=$2 _stats=${3:-- - - - - -}
	shift 3
	for _kv in "$@"; do
		_text=$(awk -v t="$_text" -v k="{${_kv%%=*}}" -v v="${_kv#*=}" 'BEGIN {
			while ((i = index(t, k)) > 0) t = substr(t, 1, i - 1) v substr(t, i + length(k)); print t }')
	done
	case $_judged in
	median) _v=$(echo "$_stats" | awk '{ print $2 }') ;;
	lo) _v=$(echo "$_stats" | awk '{ print $3 }') ;;
	hi) _v=$(echo "$_stats" | awk '{ print $4 }') ;;
	max) _v=$(echo "$_stats" | awk '{ print $6 }') ;;
	within)
		_v=$(echo "$_stats" | awk '$2 != "-" && $3 != "-" && $4 != "-" { print ($2 >= $3 && $2 <= $4) ? 1 : 0 }')
		_test="== 1"
		;;
	esac
	case $_v in
	'' | - | *[!0-9.eE+-]*) _verdict="no data" ;;
	*) _verdict=$(mark "$_v $_test") ;;
	esac
	echo "| $_text | $_fig | $_verdict | $_why |"
}
# xstats RATIO: xratio's "r [lo, hi]" as STATS for trow
xstats() {
	echo "$1" | sed -n 's/^\([^ ]*\) \[\([^,]*\), \([^]]*\)\]$/- \1 \2 \3 - -/p'
}
# maxstats COUNT...: STATS whose max is the largest COUNT (none if any is
# missing)
maxstats() {
	echo "$@" | awk -v n=$# 'NF == n && NF > 0 { m = $1; for (i = 2; i <= NF; i++) if ($i > m) m = $i; print "- - - - - " m }'
}

# cross-kernel ratio of medians, with the interval [lo_a/hi_b, hi_a/lo_b]
xratio() {	# SRC WHERE_A LOCK_A WHERE_B LOCK_B SMP IRQ METRIC
	a=$(q "$1" "$2" "$6" "$7" "$3" "$8") b=$(q "$1" "$4" "$6" "$7" "$5" "$8")
	[ -n "$a" ] && [ -n "$b" ] || { printf -- "-"; return; }
	echo "$a $b" | awk '{ if ($8 <= 0 || $9 <= 0) { printf "-"; exit }
		printf "%.3g [%.3g, %.3g]", $2 / $8, $3 / $10, $4 / $9 }'
}

{
	echo "# Spinlock benchmark"
	echo
	echo "Written by \`make bench\` (bench/scripts/run.sh, report.sh) on $DATE."
	echo "Host: $(sed -n 's/^host_cpu=//p' raw/settings.txt), $HOSTN CPUs;" \
		"$(sed -n 's/^qemu=//p' raw/settings.txt), TCG, multi-threaded."
	echo "Kernel: $(sed -n 's/^kernel=//p' raw/settings.txt); the repository at $(sed -n 's/^lab=//p' raw/settings.txt | grep . || echo 'a commit not recorded')."
	echo
	echo "## How to read it"
	echo
	echo "Kernel settings, each booted $(setting boots) time(s) per vCPU count:"
	echo
	for w in $SETUPS; do
		echo "- \`$w\`: $(kname "$w")"
	done
	echo
	[ "$IMAGE" = one ] &&
		echo "The four main settings are one image (\`configs/combobench.config\`, \`CONFIG_X86_BOOT_SPINLOCKS\`), each boot's \`spinlock: \` line checked; \`dedicated-*\` settings boot the kernel built for that lock alone, the cross-check." &&
		echo
	echo "Every figure is a **median [95% interval]** over repeated runs: in the guests over"
	echo "$(setting boots) boots of each setting x $(setting rounds) lockbench rounds per boot"
	echo "(fairness: $(setting fairness_rounds) round(s) per boot; workload: $(setting workload_rounds) runs per boot);"
	echo "on the host over $(setting host_rounds) rounds. Every lockbench load and fairness round took"
	echo "its locks in a new random order, and boots went round robin over the settings."
	p=$(setting pairs)
	[ "${p:-0}" -gt 0 ] &&
		echo "At vCPU counts the host CPUs can run at once, the ticket and skip settings' boots add $p loads of ticket8, skipticket and spin_lock() only, irqs off: there the locks differ by a few percent and one load by up to 10%, so those ratios get more runs."
	echo "The interval is distribution-free, from order statistics ([x(j), x(n+1-j)] with"
	echo "at least 95% coverage; \`[all n]\` when every run gave the same value); with fewer"
	echo "than 6 runs it is the range, which covers less (raw/summary.tsv gives the coverage"
	echo "of each). A target is met only when its whole interval is. Ratios between locks"
	echo "are taken inside one run (the same boot and round) and then summarised; ratios"
	echo "between settings (different boots) are ratios of medians, with the interval"
	echo "[lo_a / hi_b, hi_a / lo_b]. Counts that must be exact (bypasses, ticket breaks) are"
	echo "the largest of all runs."
	echo
	echo "**Macq/s** is the rate over the contended phase (the grants all CPUs had made when"
	echo "the first one finished, over its finish time; the tail in which fewer CPUs contend"
	echo "is left out). **Jain** and **max/min acq** are of the acquisitions each CPU had at"
	echo "that moment. **Bypasses** are exact grant-order figures (bench/lib/metrics.h,"
	echo "\"Grant order\"): grants to a CPU that first tried after the lock had refused a"
	echo "waiter that was still waiting; a ticket lock's refusal is its \`xadd\`, so a FIFO"
	echo "lock shows exactly 0. **Longest run** is the older, looser measure: grants in a row"
	echo "to one CPU while another had not finished."
	echo
	echo "## Where each figure comes from"
	echo
	echo "- **TCG guests** (lockbench, fairness and workload in QEMU guests): emulated code."
	echo "  Cycle counts are the host's TSC read around emulated instructions, so they say"
	echo "  what TCG's translation costs, not what the instructions cost on hardware: under"
	echo "  TCG a \`PAUSE\` makes the vCPU leave its execution loop, and an atomic is a host"
	echo "  atomic plus emulation. vCPUs are host threads: with more vCPUs than the $HOSTN host"
	echo "  CPUs the host preempts them, and a FIFO lock then waits for a preempted waiter"
	echo "  (lock-waiter preemption). Compare locks inside one guest run, not across hosts."
	echo "- **Host, real cores** (fairness, cost and the sweeps in user space on this"
	echo "  machine's $HOSTN CPUs): the series' ticket lock and the kernel's qspinlock are the"
	echo "  tree's own code (bench/lib/series.h, kqspinlock.h), the legacy lock is the"
	echo "  seed's asm. These are hardware figures (of a $HOSTN-CPU VM, itself a guest of its"
	echo "  host: its vCPUs may be descheduled too)."
	echo
	echo "## Targets"
	echo
	echo "| target | figure | verdict | why |"
	echo "|---|---|---|---|"
	for smp in $SMPS; do
		for l in ticket8 ticket16; do
			for irq in 0 1; do
				m=$(field lb ticket "$smp" "$irq" "$l" bypasses 6) tb=$(field lb ticket "$smp" "$irq" "$l" ticket_breaks 6)
				trow fifo_lockbench "max ${m:-?}, ${tb:-?} over $(field lb ticket "$smp" "$irq" "$l" bypasses 1) runs" "$(maxstats "$m" "$tb")" \
					lock="$l" smp="$smp" irq="$irq"
			done
		done
		for l in ticket8 ticket16; do
			for w in $SETUPS; do
				m=$(field gf "$w" "$smp" - "$l" bypasses 6)
				[ -n "$m" ] || continue
				trow fifo_guest "max $m over $(field gf "$w" "$smp" - "$l" bypasses 1) runs" "$(maxstats "$m")" \
					lock="$l" setting="$w" smp="$smp"
			done
		done
	done
	for l in ticket8 ticket16; do
		m=$(field hf host "$HOSTN" - "$l" bypasses 6) tb=$(field hf host "$HOSTN" - "$l" ticket_breaks 6)
		trow fifo_host "max ${m:-?}, ${tb:-?} over $(field hf host "$HOSTN" - "$l" bypasses 1) runs" "$(maxstats "$m" "$tb")" lock="$l"
	done
	for r in ticket:ticket8 ticket:ticket16 ticket:spinlock; do
		trow even_guest "$(f lb "${r%%:*}" 2 1 "${r#*:}" acq_spread 1 4)" "$(q lb "${r%%:*}" 2 1 "${r#*:}" acq_spread)" what="$(label "$r")"
	done
	for l in ticket8 ticket16; do
		trow even_host "$(f hf host "$HOSTN" - "$l" acq_spread 1 4)" "$(q hf host "$HOSTN" - "$l" acq_spread)" n="$HOSTN" lock="$l"
	done
	trow legacy_unfair "$(f hf host "$HOSTN" - legacy acq_spread 1 4); longest run $(f hf host "$HOSTN" - legacy longest_run 1 4)" \
		"$(q hf host "$HOSTN" - legacy acq_spread)"
	rmax=$(field rn host "$HOSTN" - legacy longest_run 6)
	trow seed_runs "longest run $(f rn host "$HOSTN" - legacy longest_run 1 4), largest ${rmax:-?} (see \"The seeds' long runs\")" \
		"$(q rn host "$HOSTN" - legacy longest_run)" n="$(setting runs_n)"
	for l in ticket8 ticket16; do
		trow cost_legacy "$(f cost host "$HOSTN" - "$l" ratio_uncontended_cycles_legacy 1 3)" \
			"$(q cost host "$HOSTN" - "$l" ratio_uncontended_cycles_legacy)" lock="$l"
		trow cost_qspinlock "$(f cost host "$HOSTN" - "$l" ratio_uncontended_cycles_qspinlock 1 3)" \
			"$(q cost host "$HOSTN" - "$l" ratio_uncontended_cycles_qspinlock)" lock="$l"
		trow handoff "$(f cost host "$HOSTN" - "$l" handoff_ratio 1 3) x ping-pong ($(f cost host "$HOSTN" - "$l" handoff_ns 1 3) ns against $(f cost host "$HOSTN" - pingpong ns 1 3) ns)" \
			"$(q cost host "$HOSTN" - "$l" handoff_ratio)" lock="$l"
	done
	# the skip-ticket lock's targets: the skip setting's spin_lock() against
	# the ticket setting's and the guest TAS lock (queued-guest); the exact
	# grant order from the same header in lockbench (module skipticket),
	# which spin_lock() cannot give; the uncontended cost on real cores.
	if [ -n "$(q lb skip 2 1 spinlock throughput)$(q lb ticket 2 1 skipticket throughput)" ]; then
		trow skip_bypass_share "$(f lb ticket 2 1 skipticket bypass_share 1 3)" "$(q lb ticket 2 1 skipticket bypass_share)" \
			max="$(field lb ticket 2 1 skipticket bypasses 6)"
		trow skip_jain2 "$(f lb skip 2 1 spinlock jain 1 4)" "$(q lb skip 2 1 spinlock jain)"
		trow skip_even2 "$(f lb skip 2 1 spinlock acq_spread 1 4)" "$(q lb skip 2 1 spinlock acq_spread)"
		r=$(xratio lb skip spinlock ticket spinlock 2 1 throughput)
		trow skip_vs_ticket "$r" "$(xstats "$r")"
		trow skip_vs_ticket8 "$(f lb ticket 2 1 skipticket ratio_throughput_ticket8 1 3)" "$(q lb ticket 2 1 skipticket ratio_throughput_ticket8)"
		# spin_lock() of each setting against ticket8 in the same runs:
		# not the same harness (ticket8 also stamps its arrival, an atomic
		# that spin_lock() has not), so a ticket setting is the reference
		a=$(field lb skip 2 1 spinlock ratio_throughput_ticket8 2) b=$(field lb ticket 2 1 spinlock ratio_throughput_ticket8 2)
		k=$(echo "$a $b" | awk 'NF == 2 && $2 > 0 { printf "%.3g", $1 / $2 }')
		echo "| (context) spin_lock() against ticket8 at 2 vCPUs, same runs: skip setting, ticket setting, and the one over the other | $(f lb skip 2 1 spinlock ratio_throughput_ticket8 1 3); $(f lb ticket 2 1 spinlock ratio_throughput_ticket8 1 3); ${k:--} | not a target | |"
		for smp in $SMPS; do
			[ "$smp" -gt "$HOSTN" ] || continue
			r=$(xratio lb skip spinlock queued-guest spinlock "$smp" 1 throughput)
			trow skip_vs_tas "$r" "$(xstats "$r")" smp="$smp" ticket="$(xratio lb ticket spinlock queued-guest spinlock "$smp" 1 throughput)"
			trow skip_jain "$(f lb skip "$smp" 1 spinlock jain 1 4)" "$(q lb skip "$smp" 1 spinlock jain)" smp="$smp"
			r=$(xratio wl skip futex queued-guest futex "$smp" - ops_per_sec)
			trow skip_futex "$r" "$(xstats "$r")" smp="$smp" ticket="$(xratio wl ticket futex queued-guest futex "$smp" - ops_per_sec)"
		done
		trow skip_cost "$(f cost host "$HOSTN" - skipticket ratio_uncontended_cycles_ticket8 1 3)" \
			"$(q cost host "$HOSTN" - skipticket ratio_uncontended_cycles_ticket8)"
	fi
	# the boot-time choice's targets: the one image's automatic choice in a
	# guest (setting skip) against its test-and-set fallback (queued-guest)
	# and its ticket choice; on bare metal against the queued kernel
	# (dedicated-queued-native)
	if [ "$IMAGE" = one ]; then
		for smp in $SMPS; do
			[ "$smp" -gt "$HOSTN" ] || continue
			r=$(xratio lb skip spinlock queued-guest spinlock "$smp" 1 throughput)
			trow auto_vs_tas "$r" "$(xstats "$r")" smp="$smp"
			trow auto_jain "$(f lb skip "$smp" 1 spinlock jain 1 4)" "$(q lb skip "$smp" 1 spinlock jain)" smp="$smp"
		done
		case " $SMPS " in
		*" 2 "*)
			trow auto_bypass "max $(field lb skip 2 1 skipticket bypasses 6) over $(field lb skip 2 1 skipticket bypasses 1) runs" \
				"$(q lb skip 2 1 skipticket bypasses)"
			r=$(xratio lb skip spinlock ticket spinlock 2 1 throughput)
			trow auto_vs_ticket "$r" "$(xstats "$r")"
			;;
		esac
		for smp in $SMPS; do
			b=$(q lb dedicated-queued-native "$smp" 1 spinlock throughput)
			[ -n "$b" ] || continue
			m=$(field lb queued-native "$smp" 1 spinlock throughput 2)
			trow auto_native "$(f lb queued-native "$smp" 1 spinlock throughput 1e6 3) against $(f lb dedicated-queued-native "$smp" 1 spinlock throughput 1e6 3) Macq/s" \
				"- ${m:--} $(echo "$b" | cut -d' ' -f3,4) - -" smp="$smp"
		done
	fi
	echo
	echo "(Jain at 2 CPUs is a function of max/min, so only max/min is a target.)"
	for smp in $SMPS; do
		over=
		[ "$smp" -gt "$HOSTN" ] && over=", overcommitted ($smp vCPUs on $HOSTN host CPUs)"
		for irq in 0 1; do
			echo
			[ $irq = 0 ] && echo "## lockbench, $smp vCPUs$over" && echo
			if [ $irq = 0 ]; then
				echo "Taken as spin_lock() takes a lock (interrupts on):"
			else
				echo "Interrupts off, as spin_lock_irq() (no interrupt between a CPU's arrival and its lock instruction):"
			fi
			echo
			lb_table "$smp" "$irq"
		done
		echo
		echo "Settings against each other, $smp vCPUs, irqs off (ratio of medians):"
		echo "spin_lock() of the ticket setting runs at $(xratio lb ticket spinlock queued-guest spinlock "$smp" 1 throughput)x"
		echo "the guest qspinlock (test-and-set) and $(xratio lb ticket spinlock queued-native spinlock "$smp" 1 throughput)x native"
		echo "qspinlock; the skip setting's at $(xratio lb skip spinlock queued-guest spinlock "$smp" 1 throughput)x the guest TAS lock"
		echo "and $(xratio lb skip spinlock ticket spinlock "$smp" 1 throughput)x the ticket setting's;"
		echo "the module's ticket16 at $(f lb ticket "$smp" 1 ticket16 ratio_throughput_legacy 1 3)x legacy in the same runs."
		echo
		echo "![acquisitions per CPU](acquisitions-smp$smp.png)"
		echo
		echo "![wait-time CDF](wait-cdf-smp$smp.png)"
		[ -f "bypasses-smp$smp.png" ] && echo && echo "![bypasses per wait](bypasses-smp$smp.png)"
	done
	echo
	echo "![throughput against vCPUs](throughput-vcpus.png)"
	echo
	echo "FIFO handoff passes the lock to the CPU that has waited longest, which must first pull"
	echo "the lock's cache line over, while an unfair lock is mostly re-taken by the CPU that"
	echo "just released it. When vCPUs outnumber host CPUs, the next ticket often belongs to a"
	echo "vCPU the host is not running, and every CPU waits for the host to run it: a FIFO"
	echo "lock's throughput collapses (native qspinlock's MCS queue too); virt_spin_lock()'s"
	echo "test-and-set lock goes to whichever vCPU runs, which is why 6.12 uses it in guests"
	echo "without pv spinlocks."
	echo
	if [ "$IMAGE" = one ] && echo " $SETUPS " | grep -q ' dedicated-'; then
		echo "## One image against the dedicated kernels"
		echo
		echo "spin_lock() throughput, irqs off, Macq/s, and the one image's over the dedicated kernel's (ratio of medians):"
		echo
		echo "| setting | vCPUs | one image | dedicated kernel | one image / dedicated |"
		echo "|---|---|---|---|---|"
		for w in $SETUPS; do
			case $w in dedicated-*) ;; *) continue ;; esac
			for smp in $SMPS; do
				echo "| ${w#dedicated-} | $smp | $(f lb "${w#dedicated-}" "$smp" 1 spinlock throughput 1e6 3) | $(f lb "$w" "$smp" 1 spinlock throughput 1e6 3) | $(xratio lb "${w#dedicated-}" spinlock "$w" spinlock "$smp" 1 throughput) |"
			done
		done
		echo
	fi
	echo "## Whole-kernel workload"
	echo
	echo "\`workload\` in the guest, one thread per vCPU, $(setting workload_secs) s per run:"
	echo "\`futex\` = FUTEX_WAIT with a mismatching value on one word (one futex hash-bucket"
	echo "spinlock per call); \`open\` = open+close of one file with a shared fd table."
	echo
	echo "| vCPUs | workload | ticket setting ops/s | skip setting | queued, guest (TAS) | queued, native | ticket / guest TAS | skip-ticket / guest TAS | ticket / native |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for smp in $SMPS; do
		for m in futex open; do
			echo "| $smp | $m | $(f wl ticket "$smp" - "$m" ops_per_sec 1 4) | $(f wl skip "$smp" - "$m" ops_per_sec 1 4) | $(f wl queued-guest "$smp" - "$m" ops_per_sec 1 4) | $(f wl queued-native "$smp" - "$m" ops_per_sec 1 4) | $(xratio wl ticket "$m" queued-guest "$m" "$smp" - ops_per_sec) | $(xratio wl skip "$m" queued-guest "$m" "$smp" - ops_per_sec) | $(xratio wl ticket "$m" queued-native "$m" "$smp" - ops_per_sec) |"
		done
	done
	echo
	echo "## fairness on the host's real cores"
	echo
	echo "bench/bin/fairness -t $HOSTN -n $(setting host_n) -p, $(setting host_rounds) rounds:"
	echo
	fair_table hf host "$HOSTN"
	echo
	echo "![grant timeline](timeline-host.png)"
	echo
	echo "![bypasses per wait on the host](bypasses-host.png)"
	echo
	echo "![throughput against threads](throughput-threads-host.png)"
	echo
	echo "### Cost on real cores (bench/bin/cost)"
	echo
	echo "$(setting cost_runs) runs, each the median of 11 rounds; lock+unlock inline, one CPU, and a"
	echo "handoff between two CPUs taking strict turns, against the bare cache-line ping-pong:"
	echo
	echo "| lock | uncontended (cycles) | uncontended (ns) | x legacy | x qspinlock | handoff (ns) | x ping-pong |"
	echo "|---|---|---|---|---|---|---|"
	for l in $COST_LOCKS; do
		echo "| $l | $(f cost host "$HOSTN" - "$l" uncontended_cycles 1 3) | $(f cost host "$HOSTN" - "$l" uncontended_ns 1 3) | $(f cost host "$HOSTN" - "$l" ratio_uncontended_cycles_legacy 1 3) | $(f cost host "$HOSTN" - "$l" ratio_uncontended_cycles_qspinlock 1 3) | $(f cost host "$HOSTN" - "$l" handoff_ns 1 3) | $(f cost host "$HOSTN" - "$l" handoff_ratio 1 3) |"
	done
	echo "| ping-pong | | | | | $(f cost host "$HOSTN" - pingpong ns 1 3) | 1 |"
	echo
	if grep -q 'placements=' raw/host-cost.txt 2>/dev/null; then
		echo "Each loop ran from $(sed -n 's/^cost=settings .*placements=\([0-9]*\).*/\1/p' raw/host-cost.txt | head -n 1) copies 8 bytes apart, each figure the median over them:"
		echo "where a loop's code lies moved one lock's handoff against another's by up to 1.6x (docs/experiments/handoff-gap.c)."
	else
		echo "The handoff loop is compiled once per lock, and where its code lies moves the figure:"
		echo "the asm-generic ticket lock took 1.5x ticket16's handoff, and 0.95x with both loops moved by 16 bytes"
		echo "(docs/experiments/handoff-gap.c). Handoffs within about 1.5x of each other do not rank the locks."
	fi
	echo
	echo "### What the bookkeeping costs"
	echo
	echo "fairness on the host, the same lock three ways, $(setting host_rounds) rounds: bare (-G: the"
	echo "critical section only counts, on lines it writes anyway), with the grant log (one"
	echo "load of the arrival counter per acquisition, an atomic increment of it per refused"
	echo "attempt, 32 bytes to the thread's own array), and with the grant log and wait"
	echo "timing (-p: an \`rdtsc\` before the lock call and one on acquiring it, inside the held"
	echo "region, and a histogram update after the unlock). Time per acquisition"
	echo "is 1 / contended throughput; the extra is paired inside one round."
	echo
	echo "| lock | bare, ns per acquisition | + grant log, extra ns | + grant log + timing, extra ns | longest run: bare / log / timing |"
	echo "|---|---|---|---|---|"
	for l in legacy ticket8 qspinlock; do
		echo "| $l | $(f bk host "$HOSTN" - "$l" ns_per_acq_bare 1 3) | $(f bk host "$HOSTN" - "$l" extra_ns_order 1 3) | $(f bk host "$HOSTN" - "$l" extra_ns_timing 1 3) | $(field bk host "$HOSTN" - "$l/bare" longest_run 2) / $(field bk host "$HOSTN" - "$l/order" longest_run 2) / $(field bk host "$HOSTN" - "$l/timing" longest_run 2) |"
	done
	echo
	echo "What stays in the critical section in every mode: the shared counter, the"
	echo "thread's own count and the run tracking (all on the critical section's first"
	echo "line, which it writes anyway). The grant log's arrival counter sits on a line of"
	echo "its own, touched before the lock call; its cost falls on the waiting side."
	echo
	echo "### The seeds' long runs"
	echo
	echo "Nick Piggin saw one CPU \"granted the lock up to 1 000 000 (!) times\" on an 8-core,"
	echo "2-socket Opteron. Here: legacy, bare (-G), -t $HOSTN -n $(setting runs_n), $(setting runs_tries) tries:"
	echo "longest run $(f rn host "$HOSTN" - legacy longest_run 1 4) (largest ${rmax:-?}),"
	echo "max/min acq $(f rn host "$HOSTN" - legacy acq_spread 1 4). In the guests (lockbench,"
	echo "legacy, irqs off, largest over all runs):"
	for smp in $SMPS; do
		echo "$smp vCPUs $(field lb ticket "$smp" 1 legacy longest_run 6);"
	done
	echo "A run that long needs the releasing CPU to win the line back every time for a"
	echo "million handoffs: across two sockets the waiter pays a remote miss per look"
	echo "while the owner re-takes its own cached line. Two CPUs of one chip (and TCG's"
	echo "vCPU threads) share the cache, so the waiter gets in far sooner; the runs seen"
	echo "here are bounded by how often the spinning thread is descheduled or misses."
	echo
	echo "## fairness in the guests"
	echo
	for smp in $SMPS; do
		for w in $SETUPS; do
			echo "$w setting ($(kname "$w")), $smp vCPUs (-n $(setting fairness_n), at most $(setting fairness_timeout) s per lock):"
			echo
			fair_table gf "$w" "$smp"
			echo
		done
	done
	echo "Raw data: \`raw/\` (the guests' key=value lines, format in bench/README.md; console"
	echo "logs \`raw/console-*.log\`), every sample in \`raw/samples.tsv\`, every figure with its"
	echo "interval and coverage in \`raw/summary.tsv\`, plot data in \`raw/plot/\`."
} >report.md

echo
echo "Targets (results in $dir/report.md):"
sed -n '/^## Targets/,/^(Jain/p' report.md | grep '^| ' | sed '1,2d' | awk -F'|' '{
	gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $3); gsub(/^ +| +$/, "", $4)
	printf "  %-9s %s: %s\n", $4, $2, $3 }'
