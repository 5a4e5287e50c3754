#!/usr/bin/env bash
# swarm-table.sh BIN DIR [REPEAT] — the swarm of 2, 4 and 8 workers against
# the single strategies on DIR's manifest (its bug and exhaustive models),
# as the markdown table of docs/swarm.md on stdout (make results-swarm puts
# it there). One `hc11mc bench` per number of workers, REPEAT rounds
# (default 9), the medians of the rounds (random: of its three seeds too).
set -eu
bin=$1 dir=$2 repeat=${3:-9}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for w in 2 4 8; do
	"$bin" bench "$dir" --strategies bfs,dfs,best+fsm,best+efsm,astar+efsm,random,swarm \
		--runs 3 --repeat "$repeat" --max-states 300000 --workers "$w" --format csv >"$tmp/$w.csv"
done
awk -F, '
# sep: n with thousands separators, as the other tables print it.
function sep(n,   s, out) {
	s = sprintf("%d", n); out = ""
	while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
	return s out
}
# median of the space-separated values of list.
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return a[int((n + 1) / 2)]
}
FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; f++; next }
{
	m = $col["model"]; s = $col["strategy"]
	if (!(m in seen)) { seen[m] = 1; order[++models] = m }
	if (!((f, m, s) in sec)) strats[f, m] = strats[f, m] " " s
	sec[f, m, s] = sec[f, m, s] " " $col["seconds"]
	st[f, m, s] = st[f, m, s] " " $col["states"]
	if ($col["as_expected"] != "true" || $col["limit"] != "") bad[f, m, s] = 1
	if (s == "swarm") {
		w = $col["member"] # "i/n (search)": the search
		sub(/^[^(]*\(/, "", w); sub(/\)$/, "", w)
		if (!((f, m, w) in win)) members[f, m] = members[f, m] SUBSEP w
		win[f, m, w]++
	}
}
END {
	print "| model | fastest single strategy: ms (states) | swarm of 2: states / ms (× fastest; usual winner) | swarm of 4 | swarm of 8 |"
	print "|---|---|---|---|---|"
	for (k = 1; k <= models; k++) {
		m = order[k]; row = "| " m
		for (f = 1; f <= 3; f++) {
			best = ""; bt = 0
			n = split(strats[f, m], ss, " ")
			for (i = 1; i <= n; i++) {
				s = ss[i]
				if (s == "swarm" || ((f, m, s) in bad)) continue
				t = median(sec[f, m, s])
				if (best == "" || t < bt) { best = s; bt = t }
			}
			if (f == 1) row = row sprintf(" | %s %.2f (%s)", best, bt * 1000, sep(median(st[f, m, best])))
			n = split(members[f, m], ms, SUBSEP); w = ""; wc = 0
			for (i = 2; i <= n; i++) if (win[f, m, ms[i]] > wc) { w = ms[i]; wc = win[f, m, ms[i]] }
			t = median(sec[f, m, "swarm"])
			row = row sprintf(" | %s / %.2f (%.1f×; %s)", sep(median(st[f, m, "swarm"])), t * 1000, t / bt, w)
			if (t / bt > worst[f]) worst[f] = t / bt
		}
		print row " |"
	}
	printf "\nThe most: %.1f × the fastest single strategy with 2 workers, %.1f with 4, %.1f with 8.\n", worst[1], worst[2], worst[3]
}' "$tmp/2.csv" "$tmp/4.csv" "$tmp/8.csv"
