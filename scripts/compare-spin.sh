#!/usr/bin/env bash
# compare-spin.sh -- hc11mc beside SPIN, in one run on one machine.
#
#   scripts/compare-spin.sh            (or: make compare-spin)
#
# 1. The layout family: the five philosophers (and the deadlocking three of
#    examples/philosophers.s) in the layouts firmware is written in, each
#    with its Promela twin in testdata/spin (one Promela step per 68HC11
#    instruction; see the head of testdata/spin/philo5_ordered.pml).  Each
#    goes through
#      - hc11mc check --preempt every $HC11MC_FLAGS --json (the default
#        reductions por,dead), and SPIN with its defaults (partial-order
#        reduction, dead variable elimination, statement merging): spin -a,
#        gcc -O2 -DSAFETY, ./pan -m$PAN_DEPTH -- the states each stores;
#      - the core, every reduction off: hc11mc check --reduce none --search
#        bfs --workers 1, against pan compiled with -DNOREDUCE (spin -a,
#        gcc -O2 -DSAFETY -DNOREDUCE, ./pan -m$PAN_DEPTH -w26) -- states
#        stored, the search's own seconds (hc11mc's stats.seconds, pan's
#        "elapsed time"), states per second, and hc11mc's peak memory per
#        stored state.
#    HC11MC_FLAGS is `--workers 1' by default: one search in the default
#    order, whose states stored are those of one search, as pan's are (a
#    swarm of N members stores up to N times as many, and takes N cores).
# 2. Every model of testdata/models and testdata/bench (with its manifest
#    flags) goes through `hc11mc check --json $HC11MC_FLAGS' twice: with
#    the default reductions (por,dead) and with --reduce none, each under
#    --max-states $MAX_STATES (default 20000000), so that the largest stop
#    at the limit (shown as "≥ N").  Seconds are the wall time of the whole
#    hc11mc process.
#    Two models no manifest lists, philo5_ordered and examples/philosophers
#    (--preempt every), head the table with SPIN's defaults on their twins
#    beside them, as in 1.
# 3. A check that a twin is faithful: with every reduction off on both
#    sides (spin -o1 -o2 -o3, -DNOREDUCE, pan -E; hc11mc --reduce none
#    --batch off --ignore deadlock) the two must store the same number of
#    states.  By default on examples/philosophers (seconds); TWIN_CHECK=all
#    checks every twin (1 to 17 million states each: many minutes, and a
#    few GB for pan).
# PARTS=layouts runs the layout family and the twin check only,
# PARTS=models every model and the twin check only.
#
# Prints the markdown tables on stdout (progress goes to stderr); with
# OUT=DIR it also writes each table, under the line that says where and
# when it was measured, to a file of DIR, for make to put in the docs:
# layouts.md (docs/performance.md's table of the family), layouts-readme.md
# (the README's, the family without philo5_ordered and philosophers) and
# models.md (docs/performance.md's table of every model; make results-layouts
# and results-spin).  The states and verdicts are exact; the seconds,
# states per second and bytes per state are measured.  Needs gcc; installs
# SPIN (Debian package `spin') when missing and run as root, otherwise
# says which command would.  Runs from any directory.
set -euo pipefail

MAX_STATES=${MAX_STATES:-20000000}
PAN_DEPTH=${PAN_DEPTH:-1000000}
HC11MC_FLAGS=${HC11MC_FLAGS:---workers 1}
TWIN_CHECK=${TWIN_CHECK:-philosophers}
PARTS=${PARTS:-all}
OUT=${OUT:-}

root=$(cd "$(dirname "$0")/.." && pwd)
[ -z "$OUT" ] || { mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd); }
cd "$root"
hc11mc="$root/bin/hc11mc"

say() { printf '%s\n' "$*" >&2; }
die() { say "compare-spin: $*"; exit 1; }

# ---- tools ------------------------------------------------------------------
command -v gcc >/dev/null 2>&1 ||
    die "gcc is missing: SPIN writes its verifier in C (pan.c) and gcc compiles it. Install it: apt-get install gcc"
if ! command -v spin >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "installing spin"
        apt-get install -y -qq spin >/dev/null 2>&1 ||
            { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq spin >/dev/null 2>&1; } ||
            die "could not install spin (apt-get install -y spin)"
    else
        die "spin is missing; install it with: sudo apt-get install spin"
    fi
fi
say "building bin/hc11mc"
make -s build >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
commas() { sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|[^0-9]\)/\1,\2\3/' -e 'ta'; }
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" <<<"$2" | head -n 1; }

# check FILE FLAGS... -- one hc11mc run; sets states, secs, verdict
check() {
    local file=$1 out rc=0 t0 t1
    shift
    t0=$(now)
    # shellcheck disable=SC2086 # HC11MC_FLAGS is a list of words
    out=$("$hc11mc" check "$file" "$@" $HC11MC_FLAGS --json --max-states "$MAX_STATES" 2>"$work/err") || rc=$?
    t1=$(now)
    secs=$(elapsed "$t0" "$t1")
    if [ "$rc" = 2 ] || [ -z "$out" ]; then
        say "hc11mc check $file $*: $(head -n 3 "$work/err")"
        states=error verdict=error
        return
    fi
    states=$(field states_stored "$out" | commas)
    verdict=$(field verdict "$out")
    case $verdict in
        violation) verdict=$(sed -n 's/.*"violation":{"kind":"\([^"]*\)".*/\1/p' <<<"$out") ;;
        incomplete) states="≥ $states" ;;
    esac
}

# spin_run TWIN.pml -- SPIN with its defaults; sets sstates, ssecs, span, sverdict
spin_run() {
    local twin=$1 dir t0 t1 out
    dir="$work/$(basename "$twin" .pml)"
    mkdir -p "$dir"
    cp "$twin" "$dir/"
    t0=$(now)
    out=$(cd "$dir" && spin -a "$(basename "$twin")" >spin.out 2>&1 &&
        gcc -O2 -DSAFETY -o pan pan.c >gcc.out 2>&1 &&
        ./pan -m"$PAN_DEPTH" 2>&1) || die "SPIN failed on $twin: $(cat "$dir"/*.out 2>/dev/null | head -n 5)"
    t1=$(now)
    ssecs=$(elapsed "$t0" "$t1")
    sstates=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' <<<"$out" | commas)
    span=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' <<<"$out")
    if grep -q 'errors: 0$' <<<"$out"; then
        sverdict="no errors"
    elif grep -q '^pan:[0-9]*: invalid end state' <<<"$out"; then
        sverdict="invalid end state"
    elif grep -q '^pan:[0-9]*: assertion violated' <<<"$out"; then
        sverdict="assertion violated"
    else
        sverdict="errors"
    fi
    grep -q 'max search depth too small' <<<"$out" && sverdict="$sverdict (depth limit hit: raise PAN_DEPTH)"
    return 0
}

rows=()
# row NAME FILE FLAGS... -- both hc11mc runs, and SPIN's defaults on the
# twin testdata/spin/NAME.pml where NAME has one
row() {
    local name=$1 file=$2 spin_cells=" | | | "
    shift 2
    say "$name: hc11mc (por,dead)"
    check "$file" "$@"
    local s1=$states t1=$secs v1=$verdict
    say "$name: hc11mc (none)"
    check "$file" "$@" --reduce none
    local s2=$states t2=$secs v2=$verdict
    local v=$v1
    [ "$v1" = "$v2" ] || v="$v1 / $v2"
    if [ -f "testdata/spin/$name.pml" ]; then
        say "$name: SPIN on testdata/spin/$name.pml"
        spin_run "testdata/spin/$name.pml"
        spin_cells="$sstates | $ssecs | $span | $sverdict"
    fi
    rows+=("| $name | $v | $s1 | $t1 | $s2 | $t2 | $spin_cells |")
}

# manifest DIR -- every run of DIR/manifest.json (one object per line)
manifest() {
    local dir=$1 line name file flags
    while IFS= read -r line; do
        case $line in *'"name"'*) ;; *) continue ;; esac
        name=$(sed -n 's/.*"name": *"\([^"]*\)".*/\1/p' <<<"$line")
        file=$(sed -n 's/.*"file": *"\([^"]*\)".*/\1/p' <<<"$line")
        flags=$(sed -n 's/.*"flags": *\[\([^]]*\)\].*/\1/p' <<<"$line" | tr -d '",')
        # shellcheck disable=SC2086 # the flags are words without blanks
        row "$name" "$dir/$file" $flags
    done <"$dir/manifest.json"
}

# spin_noreduce TWIN.pml -- pan without partial-order reduction; sets nstates, nsecs
spin_noreduce() {
    local twin=$1 dir out
    dir="$work/noreduce-$(basename "$twin" .pml)"
    mkdir -p "$dir"
    cp "$twin" "$dir/"
    out=$(cd "$dir" && spin -a "$(basename "$twin")" >spin.out 2>&1 &&
        gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16384 -o pan pan.c >gcc.out 2>&1 &&
        ./pan -m"$PAN_DEPTH" -w26 2>&1) || die "SPIN failed on $twin (-DNOREDUCE): $(cat "$dir"/*.out 2>/dev/null | head -n 5)"
    nstates=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' <<<"$out")
    nsecs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' <<<"$out")
    grep -q 'max search depth too small' <<<"$out" && nstates="$nstates (depth limit hit: raise PAN_DEPTH)"
    return 0
}

# rate N SECONDS -- N / SECONDS in thousands, with commas (empty when SECONDS is 0)
rate() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%d\n", n / s / 1000 + 0.5; else print "" }' | commas | sed 's/.$/& k/'; }

layouts=() readme=()
# layout NAME FILE TWIN SHAPE -- the default and the core against the twin;
# SHAPE, when not empty, is the README's description of the layout
layout() {
    local name=$1 file=$2 twin=$3 shape=$4 out rc=0 hs hsecs peak bytes
    say "$name: hc11mc (por,dead)"
    check "$file" --preempt every
    local s1=$states v1=$verdict
    say "$name: SPIN on $twin"
    spin_run "$twin"
    say "$name: hc11mc --reduce none --search bfs --workers 1"
    out=$("$hc11mc" check "$file" --preempt every --reduce none --search bfs --workers 1 --json \
        --max-states "$MAX_STATES" 2>"$work/err") || rc=$?
    [ "$rc" = 2 ] && die "hc11mc check $file: $(head -n 3 "$work/err")"
    hs=$(field states_stored "$out")
    hsecs=$(field seconds "$out")
    peak=$(field peak_memory_bytes "$out")
    say "$name: SPIN -DNOREDUCE on $twin"
    spin_noreduce "$twin"
    bytes=$(awk -v p="$peak" -v n="$hs" 'BEGIN { printf "%.0f", p / n }')
    layouts+=("| $name | $v1 | $s1 | $sstates | $sverdict | $(commas <<<"$hs") | $(rate "$hs" "$hsecs") | $bytes | $(commas <<<"$nstates") | $(rate "$nstates" "$nsecs") |")
    [ -z "$shape" ] || readme+=("| \`$name\`: $shape | $s1 | $sstates | $(rate "$hs" "$hsecs"), $bytes B | $(rate "$nstates" "$nsecs") |")
}

if [ "$PARTS" != models ]; then
    layout philo5_rom testdata/bench/philo5_rom.elf testdata/spin/philo5_rom.pml "below the stacks; ROM; ends; NOPs"
    layout philo5_equ testdata/bench/philo5_equ.elf testdata/spin/philo5_equ.pml "below; on its own stack; continues; none"
    layout philo5_ordered testdata/bench/philo5_ordered.elf testdata/spin/philo5_ordered.pml ""
    layout philo5_above testdata/bench/philo5_above.elf testdata/spin/philo5_above.pml "above the stacks; ROM; continues; NOPs"
    layout philo5_between testdata/bench/philo5_between.elf testdata/spin/philo5_between.pml "between; RAM, written at start-up; ends; loops"
    layout philo5_data testdata/bench/philo5_data.elf testdata/spin/philo5_data.pml "data symbol; RAM (\`.data\`); ends; NOPs"
    layout philo5_stackdesc testdata/bench/philo5_stackdesc.elf testdata/spin/philo5_stackdesc.pml "data symbol; thread 0's stack; continues; loops"
    layout philo5_loops testdata/bench/philo5_loops.elf testdata/spin/philo5_loops.pml "below; ROM; ends; loops"
    layout philosophers testdata/examples/philosophers.elf testdata/spin/philosophers.pml ""
fi

if [ "$PARTS" != layouts ]; then
    row philo5_ordered testdata/bench/philo5_ordered.elf --preempt every
    row philosophers testdata/examples/philosophers.elf --preempt every
    manifest testdata/models
    manifest testdata/bench
fi

# ---- the twins against hc11mc with every reduction off ------------------------
twin_check() {
    local name=$1 file=$2 twin=$3 hash=$4 dir out spin_n hc_n
    dir="$work/full-$name"
    mkdir -p "$dir"
    cp "$twin" "$dir/"
    say "$name: twin check, every reduction off"
    out=$(cd "$dir" && spin -o1 -o2 -o3 -a "$(basename "$twin")" >/dev/null 2>&1 &&
        gcc -O2 -DSAFETY -DNOREDUCE -DCOLLAPSE -DMEMLIM=16384 -o pan pan.c >/dev/null 2>&1 &&
        ./pan -E -m"$PAN_DEPTH" -w"$hash" 2>&1) || die "SPIN failed on $twin (every reduction off)"
    spin_n=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' <<<"$out")
    grep -q 'max search depth too small' <<<"$out" && spin_n="$spin_n (depth limit hit: raise PAN_DEPTH)"
    out=$("$hc11mc" check "$file" --preempt every --search bfs --reduce none --batch off --ignore deadlock --json) || true
    hc_n=$(field states_stored "$out")
    if [ "$spin_n" = "$hc_n" ]; then
        checks+=("$name: SPIN (spin -o1 -o2 -o3, -DNOREDUCE, pan -E) and hc11mc (--search bfs --reduce none --batch off --ignore deadlock) both store $(commas <<<"$hc_n") states")
    else
        checks+=("$name: THE TWIN DIFFERS: SPIN stores $spin_n states with every reduction off, hc11mc $hc_n")
    fi
}
checks=()
twin_check philosophers testdata/examples/philosophers.elf testdata/spin/philosophers.pml 20
if [ "$TWIN_CHECK" = all ]; then
    twin_check philo5_ordered testdata/bench/philo5_ordered.elf testdata/spin/philo5_ordered.pml 26
    twin_check philo5_equ testdata/bench/philo5_equ.elf testdata/spin/philo5_equ.pml 26
    for t in rom above between data stackdesc loops; do
        twin_check "philo5_$t" "testdata/bench/philo5_$t.elf" "testdata/spin/philo5_$t.pml" 26
    done
fi

# ---- the tables ---------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
measured="hc11mc $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?'), $(spin -V | head -n 1),\
 gcc $(gcc -dumpfullversion), on ${cpu:-this machine} ($(nproc) cores), $(date -u +%Y-%m-%d);\
 load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null) at the end;"

# table FILE LINES... -- print the lines, and write them to $OUT/FILE with OUT
table() {
    local file=$1
    shift
    printf '%s\n' "$@"
    [ -z "$OUT" ] || printf '%s\n' "$@" >"$OUT/$file"
}

if [ "$PARTS" != models ]; then
    echo "The layout family: forks; descriptors; thread 0; think and eat.  hc11mc check --preempt every $HC11MC_FLAGS"\
        "against SPIN's defaults; the core: hc11mc check --reduce none --search bfs --workers 1 against"\
        "pan -DNOREDUCE -w26 (states per second of the search alone; bytes: hc11mc's peak memory per stored state)."
    echo
    table layouts.md "$measured hc11mc check --preempt every $HC11MC_FLAGS against SPIN's defaults; the core:"\
" hc11mc check --reduce none --search bfs --workers 1 against pan -DNOREDUCE -w26 (states per second of the search alone;"\
" bytes: hc11mc's peak memory per stored state)." "" \
        "| model | verdict | hc11mc states (por,dead) | SPIN states (POR) | SPIN verdict | hc11mc states (none) | states/s | bytes/state | SPIN states (NOREDUCE) | states/s |" \
        "|---|---|--:|--:|---|--:|--:|--:|--:|--:|" "${layouts[@]}"
    echo
    table layouts-readme.md "| layout: forks; descriptors; thread 0; think, eat | \`check\` | SPIN (POR) | core: states/s, bytes per state | SPIN \`-DNOREDUCE\` |" \
        "|---|--:|--:|--:|--:|" "${readme[@]}"
fi
if [ "$PARTS" != layouts ]; then
    echo
    table models.md "$measured hc11mc check $HC11MC_FLAGS --max-states $(commas <<<"$MAX_STATES") with and without reductions;"\
" seconds of the whole process (for SPIN: spin -a, gcc and pan; \"pan\": pan's own search)." "" \
        "| model | verdict | hc11mc states (por,dead) | s | hc11mc states (none) | s | SPIN states stored | s (whole) | s (pan) | SPIN verdict |" \
        "|---|---|--:|--:|--:|--:|--:|--:|--:|---|" "${rows[@]}"
fi
echo
printf 'Twin check: %s\n' "${checks[@]}"
