# stats.awk - medians with 95% intervals, from samples.awk's lines:
#
#   src  where  smp  irq  lock  metric  n  median  lo  hi  cover  max
#
# One line per (src, where, smp, irq, lock, metric) with numeric samples.
# median: the sample median.  lo, hi: a distribution-free interval for the
# median from order statistics, [x(j), x(n+1-j)] with the largest j whose
# coverage 1 - 2 P(Binomial(n, 1/2) <= j - 1) is at least 95%; cover is
# that coverage in percent.  With fewer than 6 samples no such j exists:
# lo, hi are then the smallest and largest sample and cover says how sure
# that is (n = 5: 93.8%, 4: 87.5%, 3: 75%).  max: the largest sample (an
# exact count such as bypasses is judged on it, not on the median).
BEGIN { FS = OFS = "\t" }
$7 ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ {
	k = $1 OFS $2 OFS $3 OFS $4 OFS $5 OFS $6
	n[k]++
	x[k, n[k]] = $7 + 0
}
function coverage(m, j,    i, c, p) {
	# 1 - 2 * P(B <= j - 1), B ~ Binomial(m, 1/2)
	p = 0
	c = 1
	for (i = 0; i <= j - 1; i++) {
		if (i > 0)
			c = c * (m - i + 1) / i
		p += c
	}
	return 1 - 2 * p / 2 ^ m
}
END {
	for (k in n) {
		m = n[k]
		for (i = 1; i <= m; i++)
			s[i] = x[k, i]
		# insertion sort: groups are small
		for (i = 2; i <= m; i++) {
			t = s[i]
			for (j = i - 1; j >= 1 && s[j] > t; j--)
				s[j + 1] = s[j]
			s[j + 1] = t
		}
		med = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
		j = 1
		while (j + 1 <= m / 2 && coverage(m, j + 1) >= 0.95)
			j++
		printf "%s\t%d\t%.6g\t%.6g\t%.6g\t%.1f\t%.6g\n", k, m, med, s[j], s[m + 1 - j], 100 * coverage(m, j), s[m]
	}
}
