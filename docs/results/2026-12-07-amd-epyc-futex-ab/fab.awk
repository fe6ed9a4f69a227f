# Per boot triple i: median futex (or open) ops/s of new, old, tas; prints
# the ratios new/tas, old/tas, new/old per triple and their medians.
# Usage: awk [-v a=fix] [-v b=late] -v dir=. -v mode=futex -v smp=4 -v n=3 -f fab.awk
# (reads DIR/{new,old,tas}-smpN-I.txt; -v a and -v b name the files of "new" and "old")
function med(a, n,   i, j, x, b) { for (i = 1; i <= n; i++) b[i] = a[i]; for (i = 2; i <= n; i++) { x = b[i]; for (j = i - 1; j >= 1 && b[j] > x; j--) b[j + 1] = b[j]; b[j + 1] = x } lo = b[1]; hi = b[n]; return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2 }
function bootmed(f,   line, k, v, m, a) { k = 0; while ((getline line < f) > 0) { if (line ~ "^workload=" mode " ") { match(line, /ops_per_sec=[0-9]+/); v = substr(line, RSTART + 12, RLENGTH - 12); a[++k] = v + 0 } } close(f); return k ? med(a, k) : -1 }
BEGIN { for (i = 1; i <= n; i++) { nw = bootmed(dir "/" (a ? a : "new") "-smp" smp "-" i ".txt"); od = bootmed(dir "/" (b ? b : "old") "-smp" smp "-" i ".txt"); ts = bootmed(dir "/tas-smp" smp "-" i ".txt")
    if (nw < 0 || od < 0 || ts < 0) { printf "%s smp=%d boot %d: a boot without results, left out\n", mode, smp, i; continue }
    printf "%s smp=%d boot %d: new %.3g old %.3g tas %.3g  new/tas %.3f old/tas %.3f new/old %.3f\n", mode, smp, i, nw, od, ts, nw/ts, od/ts, nw/od
    k++; r1[k] = nw/ts; r2[k] = od/ts; r3[k] = nw/od }
  printf "%s smp=%d median over %d boots: new/tas %.3f [%.3f, %.3f]", mode, smp, k, med(r1, k), lo, hi; printf " old/tas %.3f [%.3f, %.3f]", med(r2, k), lo, hi; printf " new/old %.3f [%.3f, %.3f]\n", med(r3, k), lo, hi }
