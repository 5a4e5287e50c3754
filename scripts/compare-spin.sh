#!/usr/bin/env bash
# compare-spin.sh -- hc11mc beside SPIN, in one run on one machine.
#
#   scripts/compare-spin.sh            (or: make compare-spin)
#
# 1. Every model of testdata/models and testdata/bench (with its manifest
#    flags), and the two dining-philosophers models that have a SPIN twin,
#    goes through `hc11mc check --json $HC11MC_FLAGS` twice: with the
#    default reductions (por,dead) and with --reduce none, each under
#    --max-states $MAX_STATES (default 20000000), so that the largest stop
#    at the limit (shown as "≥ N").  HC11MC_FLAGS is `--workers 1' by
#    default: one search in the default order, whose states stored are
#    those of one search, as pan's are (a swarm of N members stores up to
#    N times as many, and takes N cores).  Seconds are the wall time of
#    the whole hc11mc process.
# 2. The twins in testdata/spin (one Promela step per 68HC11 instruction;
#    see the head of testdata/spin/philo5_ordered.pml) go through SPIN with
#    its defaults (partial-order reduction, dead variable elimination,
#    statement merging): spin -a, gcc -O2 -DSAFETY, ./pan -m$PAN_DEPTH.
#    The whole SPIN run (spin -a, gcc and pan) is timed, and pan's own
#    "elapsed time" is the search alone.
# 3. A check that the twin of examples/philosophers.s is faithful: with
#    every reduction off on both sides (spin -o1 -o2 -o3, -DNOREDUCE,
#    pan -E; hc11mc --reduce none --ignore deadlock) the two must store the
#    same number of states.  TWIN_CHECK=all also checks philo5_ordered
#    (14.5 million states: minutes, and 4 GB for pan).
#
# Prints one markdown table on stdout (progress goes to stderr).  Needs gcc;
# installs SPIN (Debian package `spin') when missing and run as root,
# otherwise says which command would.  Runs from any directory.
set -euo pipefail

MAX_STATES=${MAX_STATES:-20000000}
PAN_DEPTH=${PAN_DEPTH:-1000000}
HC11MC_FLAGS=${HC11MC_FLAGS:---workers 1}
TWIN_CHECK=${TWIN_CHECK:-philosophers}

root=$(cd "$(dirname "$0")/.." && pwd)
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
# row NAME FILE TWIN FLAGS... -- both hc11mc runs, and SPIN when there is a twin
row() {
    local name=$1 file=$2 twin=$3 r
    shift 3
    say "$name: hc11mc (por,dead)"
    check "$file" "$@"
    local s1=$states t1=$secs v1=$verdict
    say "$name: hc11mc (none)"
    check "$file" "$@" --reduce none
    local s2=$states t2=$secs v2=$verdict
    local v=$v1
    [ "$v1" = "$v2" ] || v="$v1 / $v2"
    r="| $name | $v | $s1 | $t1 | $s2 | $t2 |"
    if [ -n "$twin" ]; then
        say "$name: SPIN on $twin"
        spin_run "$twin"
        r="$r $sstates | $ssecs | $span | $sverdict |"
    else
        r="$r | | | |"
    fi
    rows+=("$r")
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
        row "$name" "$dir/$file" "" $flags
    done <"$dir/manifest.json"
}

row philo5_ordered testdata/bench/philo5_ordered.elf testdata/spin/philo5_ordered.pml --preempt every
row philo5_equ testdata/bench/philo5_equ.elf testdata/spin/philo5_equ.pml --preempt every
row philosophers testdata/examples/philosophers.elf testdata/spin/philosophers.pml --preempt every
manifest testdata/models
manifest testdata/bench

# ---- the twins against hc11mc with every reduction off ------------------------
twin_check() {
    local name=$1 file=$2 twin=$3 hash=$4 dir out spin_n hc_n
    dir="$work/full-$name"
    mkdir -p "$dir"
    cp "$twin" "$dir/"
    say "$name: twin check, every reduction off"
    out=$(cd "$dir" && spin -o1 -o2 -o3 -a "$(basename "$twin")" >/dev/null 2>&1 &&
        gcc -O2 -DSAFETY -DNOREDUCE -DMEMLIM=16384 -o pan pan.c >/dev/null 2>&1 &&
        ./pan -E -m"$PAN_DEPTH" -w"$hash" 2>&1) || die "SPIN failed on $twin (every reduction off)"
    spin_n=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' <<<"$out")
    grep -q 'max search depth too small' <<<"$out" && spin_n="$spin_n (depth limit hit: raise PAN_DEPTH)"
    out=$("$hc11mc" check "$file" --preempt every --search bfs --reduce none --ignore deadlock --json) || true
    hc_n=$(field states_stored "$out")
    if [ "$spin_n" = "$hc_n" ]; then
        checks+=("$name: SPIN (spin -o1 -o2 -o3, -DNOREDUCE, pan -E) and hc11mc (--search bfs --reduce none --ignore deadlock) both store $(commas <<<"$hc_n") states")
    else
        checks+=("$name: THE TWIN DIFFERS: SPIN stores $spin_n states with every reduction off, hc11mc $hc_n")
    fi
}
checks=()
twin_check philosophers testdata/examples/philosophers.elf testdata/spin/philosophers.pml 20
if [ "$TWIN_CHECK" = all ]; then
    twin_check philo5_ordered testdata/bench/philo5_ordered.elf testdata/spin/philo5_ordered.pml 26
fi

# ---- the table ----------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "hc11mc $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?'), $(spin -V | head -n 1),"\
    "gcc $(gcc -dumpfullversion), on ${cpu:-this machine} ($(nproc) cores), $(date -u +%Y-%m-%d);"\
    "load average $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null) at the end;"\
    "hc11mc check $HC11MC_FLAGS --max-states $(commas <<<"$MAX_STATES"); seconds of the whole process."
echo
echo "| model | verdict | hc11mc states (por,dead) | s | hc11mc states (none) | s | SPIN states stored | s (whole) | s (pan) | SPIN verdict |"
echo "|---|---|--:|--:|--:|--:|--:|--:|--:|---|"
printf '%s\n' "${rows[@]}"
echo
printf 'Twin check: %s\n' "${checks[@]}"
