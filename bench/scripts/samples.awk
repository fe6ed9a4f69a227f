# samples.awk - make bench's raw data (results/raw/) as one sample per line,
# tab-separated, for stats.awk and the plots:
#
#   src  where  smp  irq  lock  metric  value  run
#
#   src    lb: lockbench (kernel module, guest); gf: fairness in a guest;
#          wl: workload in a guest; hf: fairness on the host; bk: the
#          bookkeeping runs on the host (lock is LOCK/MODE); sw: the host's
#          thread sweep (smp = threads); rn: the long-run attempt; cost:
#          bench/bin/cost on the host
#   where  the kernel setting (ticket, skip, queued-guest, queued-native,
#          dedicated-SETTING: see run.sh) or host
#   smp    vCPUs (guests), threads (sweep), host CPUs (other host runs)
#   irq    lockbench's irqsoff (0/1), "-" elsewhere
#   run    which run the sample came from: bBOOT.rROUND in a guest (one
#          lockbench load, fairness round or workload run), rROUND on the
#          host. Ratios taken inside one run share it (metric ratio_*).
#
# Usage: awk -v host_cpus=N -f samples.awk raw/*.txt
# Files: SETUP-smpN-bootB.txt (guests) and host-{fairness,book,sweep,runs,
# cost}.txt (host), as bench/scripts/run.sh writes them.

function kv(line,    i, p, n, f) {
	split("", v)
	n = split(line, f, " ")
	for (i = 1; i <= n; i++) {
		p = index(f[i], "=")
		if (p)
			v[substr(f[i], 1, p - 1)] = substr(f[i], p + 1)
	}
}

function out(src, lock, metric, value) {
	if (value == "")
		return
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", src, where, smp, irq, lock, metric, value, run
	if (metric == "throughput" || metric == "uncontended_cycles" || metric == "ops_per_sec")
		val[src SUBSEP where SUBSEP smp SUBSEP irq SUBSEP run SUBSEP metric SUBSEP lock] = value
}

FNR == 1 {
	f = FILENAME
	sub(/.*\//, "", f)
	sub(/\.txt$/, "", f)
	irq = "-"
	round = 1
	if (f ~ /^host-/) {
		where = "host"
		smp = host_cpus
		hsrc = f == "host-fairness" ? "hf" : f == "host-book" ? "bk" : \
		       f == "host-sweep" ? "sw" : f == "host-runs" ? "rn" : "cost"
		boot = ""
	} else {
		where = f
		sub(/-smp.*/, "", where)
		smp = f
		sub(/.*-smp/, "", smp)
		sub(/-boot.*/, "", smp)
		boot = f
		sub(/.*-boot/, "", boot)
		hsrc = ""
	}
	split("", wround)
}

# ---- guests ----
/^LAB: bench lockbench begin round=/ { kv($0); run = "b" boot ".r" v["round"] }
/^lockbench=1 / { kv($0); irq = v["irqsoff"] }
/^LAB: bench lockbench end/ { irq = "-" }
/^lock=.* impl=/ {
	kv($0)
	l = v["lock"]
	out("lb", l, "impl:" v["impl"], 1)
	split("throughput throughput_all jain acq_spread spread longest_run fifo_breaks bypasses bypass_share bypass_max bypass_run ticket_breaks uncontended_cycles wait_p50 wait_p99 wait_max handoff_p50 complete", ks, " ")
	for (k in ks)
		if (ks[k] in v && v[ks[k]] != "na" && v[ks[k]] != "inf")
			out("lb", l, ks[k], v[ks[k]])
	if (v["acq_spread"] == "inf")
		out("lb", l, "acq_spread", 1e99)
	out("lb", l, "wait_hist", v["wait_hist"])
	if ("bypass_hist" in v)
		out("lb", l, "bypass_hist", v["bypass_hist"])
	next
}
/^cpu=[0-9]+ lock=/ && irq != "-" {
	kv($0)
	out("lb", v["lock"], "acq_at_first.cpu" v["cpu"], v["acq_at_first"])
	next
}
/^LAB: bench fairness round=/ { kv($0); run = "b" boot ".r" v["round"] }
/^LAB: bench fairness .* timed out/ && hsrc == "" {
	l = $4
	out("gf", l, "timed_out", 1)
	next
}
/^workload=/ {
	kv($0)
	wround[v["workload"]]++
	run = "b" boot ".r" wround[v["workload"]]
	out("wl", v["workload"], "ops_per_sec", v["ops_per_sec"])
	out("wl", v["workload"], "jain", v["jain"])
	next
}

# ---- host ----
/^LAB: host / {
	kv($0)
	run = "r" v["round"]
	hlock = v["lock"]
	if ("mode" in v)
		hlock = hlock "/" v["mode"]
	if ("threads" in v)
		smp = v["threads"]
	if (hsrc == "cost")
		run = "r" v["round"]
	if ($0 ~ /timed out/)
		out(hsrc, hlock, "timed_out", 1)
	next
}
/^cost=uncontended / { kv($0); out("cost", v["lock"], "uncontended_cycles", v["cycles"]); out("cost", v["lock"], "uncontended_ns", v["ns"]); next }
/^cost=pingpong / { kv($0); out("cost", "pingpong", "ns", v["ns"]); next }
/^cost=handoff / { kv($0); out("cost", v["lock"], "handoff_ns", v["ns"]); out("cost", v["lock"], "handoff_ratio", v["ratio"]); next }

# ---- fairness (guest or host) ----
/^lock=.* iters=/ {
	kv($0)
	src = hsrc == "" ? "gf" : hsrc
	l = hsrc == "" || hsrc == "hf" ? v["lock"] : hlock
	split("throughput throughput_all jain acq_spread spread longest_run bypasses bypass_share bypass_max bypass_run ticket_breaks waits wait_p50 wait_p99 wait_max total_ns", ks, " ")
	for (k in ks)
		if (ks[k] in v && v[ks[k]] != "inf")
			out(src, l, ks[k], v[ks[k]])
	if (v["acq_spread"] == "inf")
		out(src, l, "acq_spread", 1e99)
	if ("wait_hist" in v)
		out(src, l, "wait_hist", v["wait_hist"])
	if ("bypass_hist" in v)
		out(src, l, "bypass_hist", v["bypass_hist"])
	next
}
/^timeline=/ {
	kv($0)
	out(hsrc == "" ? "gf" : hsrc, v["timeline"], "timeline", v["who"])
	next
}

# Ratios inside one run: every lock's throughput (and uncontended cost)
# over legacy's, and over spin_lock()'s in lockbench; skipticket's and
# spin_lock()'s over ticket8's; workload modes have none (one mode per run).
END {
	for (key in val) {
		split(key, a, SUBSEP)
		src = a[1]; where = a[2]; smp = a[3]; irq = a[4]; run = a[5]; metric = a[6]; l = a[7]
		if (src == "bk" && metric == "throughput" && l ~ /\/bare$/) {
			# what the grant log and the wait timing add per acquisition
			lb = l
			sub(/\/bare$/, "", lb)
			base = a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4] SUBSEP a[5] SUBSEP a[6] SUBSEP lb
			if ((base "/order") in val && val[base "/order"] > 0 && val[key] > 0)
				out(src, lb, "extra_ns_order", sprintf("%.4g", 1e9 / val[base "/order"] - 1e9 / val[key]))
			if ((base "/timing") in val && val[base "/timing"] > 0 && val[key] > 0)
				out(src, lb, "extra_ns_timing", sprintf("%.4g", 1e9 / val[base "/timing"] - 1e9 / val[key]))
			out(src, lb, "ns_per_acq_bare", sprintf("%.4g", 1e9 / val[key]))
		}
		if (src == "wl" || src == "bk")
			continue
		base = a[1] SUBSEP a[2] SUBSEP a[3] SUBSEP a[4] SUBSEP a[5] SUBSEP a[6] SUBSEP
		if ((base "legacy") in val && val[base "legacy"] > 0 && l != "legacy")
			out(src, l, "ratio_" metric "_legacy", sprintf("%.6g", val[key] / val[base "legacy"]))
		if ((base "qspinlock") in val && val[base "qspinlock"] > 0 && l != "qspinlock")
			out(src, l, "ratio_" metric "_qspinlock", sprintf("%.6g", val[key] / val[base "qspinlock"]))
		if ((base "ticket8") in val && val[base "ticket8"] > 0 && (l == "skipticket" || l == "spinlock"))
			out(src, l, "ratio_" metric "_ticket8", sprintf("%.6g", val[key] / val[base "ticket8"]))
		if ((base "spinlock") in val && val[base "spinlock"] > 0 && l != "spinlock")
			out(src, l, "ratio_" metric "_spinlock", sprintf("%.6g", val[key] / val[base "spinlock"]))
	}
}
