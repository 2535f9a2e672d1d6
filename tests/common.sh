# shellcheck shell=bash
# common.sh - sourced by tests/cli_*.sh: a scratch folder $tmp removed on
# exit, the pass counter with ok and fail (which prints the count and exits
# 1), col NAME (the column NAME of the CSV row on stdin, by its header),
# one_line (a run of $bin, the warpsim binary, refused as bad input),
# csv_row (a measured row's columns, by KEY=VALUE) and warp_ends (a
# microbenchmark's per-warp end stamps, summed up).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
fail() { echo "FAIL: $*" >&2; echo "$passed passed, 1 failed"; exit 1; }
ok() { passed=$((passed + 1)); }
col() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }'; }
one_line() { # NAME NEEDLE -- ARGS...: exit 2, nothing on stdout, one line on stderr holding NEEDLE
  local name=$1 needle=$2 rc=0
  shift 3
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc (want 2): $(head -c 300 "$tmp/err")"
  [ ! -s "$tmp/out" ] || fail "$name: wrote to stdout"
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$name: not one line: $(head -c 300 "$tmp/err")"
  grep -qF -- "$needle" "$tmp/err" || fail "$name: '$needle' not in: $(head -c 300 "$tmp/err")"
  ok
}
# csv_row FILE "KEY=VALUE ..." COLUMN...: the COLUMNs, space-separated, of
# the first row of FILE (a CSV with a header row) whose every KEY column
# holds VALUE; nothing when no row matches.
csv_row() {
  local file=$1 want=$2
  shift 2
  awk -F, -v want="$want" -v cols="$*" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, kv, " "); m = split(cols, col, " "); next }
    { for (j = 1; j <= n; j++) { split(kv[j], p, "="); if ($c[p[1]] != p[2]) next }
      s = $c[col[1]]; for (j = 2; j <= m; j++) s = s " " $c[col[j]]; print s; exit }' "$file"
}
# warp_ends FILE KERNEL B: "span mean_end" of KERNEL at B CTAs per SM in the
# per-warp stamps FILE (a CSV with kernel, blocks_per_sm, smid and end
# columns): per stamped SM its last warp's end (the span) and its warps' mean
# end over that span, each averaged over the SMs; nothing when no row matches.
warp_ends() {
  awk -F, -v k="$2" -v b="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["kernel"] == k && $c["blocks_per_sm"] == b {
      s = $c["smid"]; n[s]++; sum[s] += $c["end"]; if ($c["end"] > last[s]) last[s] = $c["end"] }
    END { for (s in n) { m += sum[s] / n[s] / last[s]; sp += last[s]; ns++ }
          if (ns) printf "%.1f %.6f", sp / ns, m / ns }' "$1"
}
