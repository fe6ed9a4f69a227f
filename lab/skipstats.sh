#!/bin/sh
# The skip-ticket lock's slow path, counted: boot a skip-ticket kernel at
# each vCPU count, load lockbench with its skipticket lock alone (irqs off,
# a fixed duration) several times, and print, per 10^6 handoffs (grants to
# a CPU that waited: the held and claims counts), what the header's
# __skipticket_stat() hook counted in lockbench (bench/lockbench):
#   lazy      waits next in line, unregistered (a calm guest)
#   late      ... of which registered after SKIPTICKET_LAZY_SPINS spins
#   reg       registered waits
#   early     ... of which registered in the xadd that took the ticket (a
#             hurried guest's first arrivals)
#   blocked   registered waiters at head that found a CPU behind them not
#             yet registered (busy != 0 with the lock offered to them)
#   stalls    offers noted unclaimed for the patience (once per offer, and
#             again every 32 patiences it stays unclaimed)
#   skips, requeues
#   stale     claims of a ticket that another waiter had taken since (our
#             old ticket come round again after 2^8 more)
# and the share of the run the lock's state was hurried. Medians over the
# runs, with the lowest and highest in brackets. The counts are lockbench's
# own copy of the lock (its state starts calm in each run), not the
# kernel's spin_lock().
# Usage: lab/skipstats.sh [-n BOOTS] [-r LOADS] [-d MS] [-v VARIANT] SMP...
#   -n  boots per vCPU count (default 2)   -r  loads per boot (default 3)
#   -d  milliseconds per load (default 2000)
#   -v  a skip-ticket variant (default skipbench)
. "$(dirname "$0")/lib.sh"
cd "$LAB" || exit 1

boots=2 loads=3 ms=2000 v=skipbench
while getopts n:r:d:v: opt; do
	case $opt in
	n) boots=$OPTARG ;;
	r) loads=$OPTARG ;;
	d) ms=$OPTARG ;;
	v) v=$OPTARG ;;
	*) die "usage: lab/skipstats.sh [-n BOOTS] [-r LOADS] [-d MS] [-v VARIANT] SMP..." ;;
	esac
done
shift $((OPTIND - 1))
check_number BOOTS "$boots" 1 100
check_number LOADS "$loads" 1 100
check_number MS "$ms" 100 60000
check_variant "$v"
[ "$(fragconf "$v" CONFIG_X86_TICKET_SKIP_PREEMPTED)" = y ] || die "variant $v has no skip-ticket lock"
[ $# -gt 0 ] || die "usage: lab/skipstats.sh [options] SMP..."
for smp in "$@"; do check_smp "$smp"; done

lab/deps.sh && lab/tree.sh && lab/build.sh "$v" || exit 1
ko=$(bench/scripts/build-lockbench.sh "$v") || exit 1
lab/initramfs.sh "$v" "$ko" || exit 1
out=$LOGS/skipstats
mkdir -p "$out"

printf '%-5s %5s %9s %7s %6s %7s %7s %8s %7s %7s %7s %6s %8s %9s\n' vCPUs runs "Macq/s" lazy late reg early blocked stalls skips requeue stale hurried handoffs
for smp in "$@"; do
	: >"$out/smp$smp.txt"
	i=1
	while [ $i -le "$boots" ]; do
		log=$out/smp$smp-$i.log
		append="lab.bench=1 lab.bench_rounds=$loads"
		append="$append lab.bench_args=locks=skipticket,count=0,duration_ms=$ms,irqsoff=1,skt_stats=1"
		t=$((120 + loads * (ms / 1000 + 20)))
		if ! r=$(lab/boot.sh -t "$t" -a "$append" "$v" "$smp" "$log"); then
			echo "error: $r (log: $log)" >&2
			exit 1
		fi
		lab/check.sh boot "$log" >/dev/null || { echo "error: boot $smp vCPUs: $(lab/check.sh boot "$log") (log: $log)" >&2; exit 1; }
		grep -a '^lock=skipticket ' "$log" >>"$out/smp$smp.txt"
		i=$((i + 1))
	done
	# Per run: the rates, then the medians and ranges over runs.
	awk -v smp="$smp" '
	function get(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	{
		h = get("skt_held") + get("skt_claims"); if (h + 0 == 0) h = 1
		n++
		v[1, n] = get("throughput") / 1e6
		v[2, n] = get("skt_lazy") * 1e6 / h
		v[3, n] = get("skt_lazy_late") * 1e6 / h
		v[4, n] = get("skt_waits") * 1e6 / h
		v[5, n] = get("skt_early") * 1e6 / h
		v[6, n] = get("skt_blocked") * 1e6 / h
		v[7, n] = get("skt_stalls") * 1e6 / h
		v[8, n] = get("skt_skips") * 1e6 / h
		v[9, n] = get("skt_requeues") * 1e6 / h
		v[10, n] = get("skt_stale") * 1e6 / h
		v[11, n] = get("skt_hurried_ppm") / 1e4
		v[12, n] = h
	}
	function med(c,   i, j, t, a) {
		for (i = 1; i <= n; i++) a[i] = v[c, i]
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		lo = a[1]; hi = a[n]
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		if (!n) { print "error: no lockbench results at " smp " vCPUs" > "/dev/stderr"; exit 1 }
		printf "%-5s %5d", smp, n
		w[2] = 7; w[3] = 6; w[4] = 7; w[5] = 7; w[6] = 8; w[7] = 7; w[8] = 7; w[9] = 7; w[10] = 6
		for (c = 1; c <= 11; c++) {
			m = med(c)
			if (c == 1) printf " %9.3f", m
			else if (c == 11) printf " %7.1f%%", m
			else printf " %*.0f", w[c], m
		}
		printf " %9.0f\n", med(12)
		split("Macq/s lazy late reg early blocked stalls skips requeue stale hurried%", name, " ")
		for (c = 1; c <= 11; c++) { med(c); r = r sprintf(" %s [%.4g, %.4g]", name[c], lo, hi) }
		print "      range:" r
	}' "$out/smp$smp.txt" || exit 1
done
