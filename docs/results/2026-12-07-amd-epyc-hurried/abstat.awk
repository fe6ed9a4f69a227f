# Medians (lowest, highest) over the loads of lockbench result lines
# (ab.sh's boots): spinlock/legacy, skipticket/legacy, spinlock/ticket8,
# skipticket/ticket8 and spinlock's Jain index, each ratio inside a load.
# Usage: cat new-smp4-*.txt | awk -v label="new smp=4" -f abstat.awk
function get(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/^lock=/ { l = get("lock"); t[l] = get("throughput"); j[l] = get("jain"); n[l]++
  if (n["legacy"] && n["spinlock"] && n["skipticket"] && n["ticket8"] && n["legacy"] == n["spinlock"] && n["spinlock"] == n["skipticket"] && n["skipticket"] == n["ticket8"]) {
    k++; r1[k] = t["spinlock"] / t["legacy"]; r2[k] = t["skipticket"] / t["legacy"]; r3[k] = t["spinlock"] / t["ticket8"]; r4[k] = t["skipticket"]/t["ticket8"]; js[k] = j["spinlock"]; sp[k]=t["spinlock"]
  } }
function med(a, n,   i, jj, x, b) { for (i = 1; i <= n; i++) b[i] = a[i]; for (i = 2; i <= n; i++) { x = b[i]; for (jj = i - 1; jj >= 1 && b[jj] > x; jj--) b[jj + 1] = b[jj]; b[jj + 1] = x } lo = b[1]; hi = b[n]; return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2 }
END { printf "%s: n=%d spinlock/legacy %.3f [%.3f %.3f]", label, k, med(r1, k), lo, hi
  printf " skipticket/legacy %.3f [%.3f %.3f]", med(r2, k), lo, hi
  printf " spinlock/ticket8 %.3f [%.3f %.3f]", med(r3, k), lo, hi
  printf " skipticket/ticket8 %.3f [%.3f %.3f]", med(r4, k), lo, hi
  printf " jain(spinlock) %.4f", med(js, k)
  printf " [%.4f %.4f]\n", lo, hi }
