#!/bin/bash
# test-slurm.sh -- the swarm as a real Slurm array job (make test-slurm).
#
# Starts a one-node Slurm cluster on this machine (slurmctld and slurmd in
# the foreground, in a temporary directory, on ports of their own, with
# auth/none: nothing leaves localhost), plans a swarm of 4 members on
# testdata/bench/tick_counter.elf with `hc11mc swarm plan --format slurm`,
# submits it with sbatch, waits for the array to finish, merges the results
# with `hc11mc swarm merge` and replays the winning counterexample.
# Expected: merge exits 1 (the torn read), replay exits 1 (reproduced).
#
# Needs Debian's slurm-wlm (installed when missing and run as root); skips
# with a message, exit 0, where it cannot be installed. Not part of `make
# test`: it starts daemons and takes half a minute.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
hc11mc=$root/bin/hc11mc

need() { command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null; }
if ! need; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "test-slurm: installing slurm-wlm"
		apt-get install -y -qq slurm-wlm >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq slurm-wlm >/dev/null 2>&1)
	fi
	if ! need; then
		echo "test-slurm: skipped: slurm-wlm is not installed (sudo apt-get install slurm-wlm)"
		exit 0
	fi
fi
[ -x "$hc11mc" ] || { echo "test-slurm: build hc11mc first (make build)"; exit 2; }

tmp=$(mktemp -d /tmp/hc11mc-slurm.XXXXXX)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "test-slurm: FAIL: $*"; for f in "$tmp"/*.log; do echo "== $f"; tail -20 "$f"; done; exit 1; }

node=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
user=$(id -un)
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/work"
cat > "$tmp/slurm.conf" <<EOF
ClusterName=hc11mc-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16917
SlurmdPort=16918
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=swarm Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out.log" 2>&1 & pids+=($!)
slurmd -D -N "$node" -f "$SLURM_CONF" >"$tmp/slurmd.out.log" 2>&1 & pids+=($!)
for i in $(seq 60); do
	state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
	case $state in idle*|mix*|alloc*) break ;; esac
	sleep 1
done
case $state in idle*|mix*|alloc*) ;; *) fail "the node did not come up (state '$state')" ;; esac
echo "test-slurm: one-node Slurm up on $node ($cpus CPUs)"

fw=$root/testdata/bench/tick_counter.elf
"$hc11mc" swarm plan --size 4 --format slurm --hc11mc "$hc11mc" --name hc11mc-test "$fw" --irq toc1 --max-states 3000000 >"$tmp/swarm.sbatch" ||
	fail "swarm plan"
cd "$tmp/work"
job=$(sbatch --parsable "$tmp/swarm.sbatch") || fail "sbatch"
echo "test-slurm: submitted array job $job"
for i in $(seq 180); do
	[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
	sleep 1
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "job $job still queued or running after 3 minutes"
ls swarm-results/member-*.json >/dev/null 2>&1 || fail "no results"
"$hc11mc" swarm merge swarm-results/member-*.json --trace "$tmp/cex.json"
code=$?
[ $code = 1 ] || fail "swarm merge exited $code, want 1 (violation)"
"$hc11mc" replay "$tmp/cex.json" >/dev/null
code=$?
[ $code = 1 ] || fail "replay exited $code, want 1 (reproduced)"
echo "test-slurm: ok: the array job's members found the torn read and the merged trace replays"
