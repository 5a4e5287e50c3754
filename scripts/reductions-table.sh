#!/usr/bin/env bash
# reductions-table.sh BIN — the states --reduce none and the default
# --reduce por,dead store, breadth-first and depth-first: the table of
# docs/performance.md's Reductions on stdout (make results-reductions puts
# it there). The bench models through `hc11mc bench testdata/bench --reduce
# none,por+dead --strategies bfs,dfs` (before the error on the buggy ones,
# every reachable state on the verified ones); philo_big depth-first and
# two philo5 layouts through `check --preempt every --search bfs|dfs
# --workers 1` (with their search's seconds: philo_big without reductions
# is 41 million states, most of the time). The states are exact
# (TestBenchmarksDoc and TestReductionsTableDoc check them), the seconds
# measured. About two minutes.
set -eu
bin=$1
bench_models=peterson,bakery,naive3,dining2,bakery_broken,hyman,dining3,irq_lostupdate
commas() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[^0-9]\)/\1,\2\3/' -e 'ta'; }
# run FILE FLAGS... — "STATES (SECONDS s)" of one check, or STATES alone with QUIET=1
run() {
	local file=$1
	shift
	{ "$bin" check "testdata/bench/$file.elf" --preempt every --workers 1 "$@" --json || [ $? = 1 ] || [ $? = 3 ]; } |
		jq -r --arg quiet "${QUIET:-}" 'if $quiet == "" then "\(.stats.states_stored) (\(.stats.seconds * 100 | round / 100) s)" else "\(.stats.states_stored)" end' | commas
}
echo "| model | verdict | bfs, none | bfs, por,dead | dfs, none | dfs, por,dead |"
echo "|---|---|---:|---:|---:|---:|"
"$bin" bench testdata/bench --models "$bench_models" --reduce none,por+dead --strategies bfs,dfs --format csv |
	awk -F, -v order="$bench_models" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{
			m = $col["model"]
			v = $col["verdict"] == "violation" ? $col["violation"] : $col["verdict"]
			if (!(m in verdict)) verdict[m] = v; else if (verdict[m] != v) verdict[m] = verdict[m] " / " v
			cell[m "/" $col["strategy"] "/" $col["reduce"]] = $col["states"]
		}
		END {
			n = split(order, ms, ",")
			for (i = 1; i <= n; i++) {
				m = ms[i]
				printf "| %s | %s | %s | %s | %s | %s |\n", m, verdict[m], cell[m "/bfs/none"], cell[m "/bfs/por+dead"], cell[m "/dfs/none"], cell[m "/dfs/por+dead"]
			}
		}' | commas
echo "| philo_big | verified | | | $(run philo_big --search dfs --reduce none) | $(run philo_big --search dfs) |"
for m in philo5_equ philo5_rom; do
	echo "| $m | verified | $(QUIET=1 run $m --search bfs --reduce none) | $(QUIET=1 run $m --search bfs) | | $(QUIET=1 run $m --search dfs) |"
done
