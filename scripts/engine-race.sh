#!/usr/bin/env bash
# engine-race.sh BIN DIR... — check's default (the swarm, racing HMC where
# the firmware draws nondeterministic data) against each engine forced
# alone, --engine explicit, hmc and auto, on every model of each DIR's
# manifest.json, as a markdown table on stdout (make results-race puts it
# into README.md). Each run is the whole process, `timeout 60`, as a user
# runs it: the time is wall-clock, the median of RUNS runs (default 3; one
# run where the first takes more than 5 s), the verdict the exit code's.
set -u
bin=$1
shift
runs=${RUNS:-3}
limit=${LIMIT:-60}

# field NAME LINE: the string value of "NAME" in one manifest line.
field() { sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p" <<<"$2"; }

# one FILE ENGINE FLAGS...: prints "SECONDS VERDICT MEMBER" for one run.
one() {
	local file=$1 engine=$2
	shift 2
	local args=(check "$file" "$@" --json -q)
	[ "$engine" != default ] && args+=(--engine "$engine")
	local start end out code
	start=$(date +%s%N)
	out=$(timeout "$limit" "$bin" "${args[@]}" 2>/dev/null)
	code=$?
	end=$(date +%s%N)
	local verdict=error
	case $code in
	0) verdict=verified ;;
	1) verdict=violation ;;
	3) verdict=incomplete ;;
	124) verdict=timeout ;;
	esac
	local member=-
	if [ "$engine" = default ] && [ $code -le 1 ]; then
		# "member" sorts before "members": the first is the winner.
		member=$(grep -o '"member":"[^"]*"' <<<"$out" | head -1 | sed 's/"member":"\(.*\)"/\1/')
	fi
	echo "$(awk -v ns=$((end - start)) 'BEGIN { printf "%.3f", ns / 1e9 }') $verdict ${member// /_}"
}

# cell SECONDS VERDICT EXPECT: a time, ≥ the limit when it stopped the
# run, "!" beside a verdict that is not the manifest's.
cell() {
	case $2 in
	timeout) echo "≥$limit" ;;
	"$3") echo "$1" ;;
	incomplete) echo "$1 (incomplete)" ;;
	*) echo "$1 ! ($2)" ;;
	esac
}

echo "| model | expected | default | decided by | --engine explicit | --engine hmc | --engine auto | default ÷ fastest engine |"
echo "|---|---|---|---|---|---|---|---|"
models=0 within=0 decided=0 missed=""
for dir in "$@"; do
	while IFS= read -r line; do
		name=$(field name "$line")
		[ -z "$name" ] && continue
		file=$dir/$(field file "$line")
		expect=$(field expect "$line")
		flags=$(sed -n 's/.*"flags": *\[\([^]]*\)\].*/\1/p' <<<"$line" | tr -d '"' | tr ',' ' ')
		read -ra fl <<<"$flags"
		row="| $name | $expect"
		best="" default_t="" default_v=""
		for engine in default explicit hmc auto; do
			times=() verdict="" member=""
			for ((r = 0; r < runs; r++)); do
				read -r t v m <<<"$(one "$file" "$engine" "${fl[@]}")"
				times+=("$t") verdict=$v member=$m
				awk -v t="$t" 'BEGIN { exit !(t > 5) }' && break
			done
			med=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
			row+=" | $(cell "$med" "$verdict" "$expect")"
			if [ "$engine" = default ]; then
				row+=" | ${member//_/ }"
				default_t=$med default_v=$verdict
			elif [ "$verdict" = "$expect" ] && { [ -z "$best" ] || awk -v a="$med" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then
				best=$med
			fi
		done
		models=$((models + 1))
		if [ "$default_v" = "$expect" ]; then
			decided=$((decided + 1))
			if [ -z "$best" ]; then
				row+=" | (no engine alone decided)"
				within=$((within + 1))
			else
				ratio=$(awk -v a="$default_t" -v b="$best" 'BEGIN { printf "%.1f", a / b }')
				row+=" | $ratio"
				awk -v r="$ratio" 'BEGIN { exit !(r <= 2) }' && within=$((within + 1))
			fi
		elif [ -n "$best" ]; then
			row+=" | **undecided**"
			missed+=" $name"
		else
			row+=" | (no engine decided)"
		fi
		echo "$row |"
	done <"$dir/manifest.json"
done
echo
echo "Seconds, whole process (\`timeout $limit\`, median of $runs runs); ≥: stopped by the limit; !: not the manifest's verdict. Measured, not checked: the times, and \"decided by\" (the race's winner); TestEngineRaceDoc checks the verdicts."
echo "The default decided $decided of the $models models, within twice the fastest engine's time on $within of them${missed:+; undecided where an engine decided:$missed}."
