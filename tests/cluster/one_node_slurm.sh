#!/usr/bin/env bash
# A one-machine Slurm cluster for the cluster test, sourced by it: start_slurm writes a slurm.conf
# for this machine under $slurm_dir (its cores, its memory, its own ports, state and spool folders
# in $slurm_dir), creates a munge key, starts munged, slurmctld and slurmd, and waits until sinfo
# shows the node idle; stop_slurm stops exactly the daemons it started, by the PIDs in their pid
# files. The daemons talk over 127.0.0.1, whatever the host name resolves to. Every wait is
# bounded, so a broken installation fails the test instead of hanging it.

# Runs "$@" every half second until it succeeds, for at most $1 seconds; fails after that.
wait_until() {
  local seconds=$1 tries
  shift
  for ((tries = 0; tries < seconds * 2; tries++)); do
    if "$@" > /dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "slurm: gave up after ${seconds} s waiting for: $*" >&2
  return 1
}

node_idle() { [ "$(sinfo -h -n "$slurm_node" -o %t 2>/dev/null)" = idle ]; }

start_slurm() {
  slurm_node=$(hostname -s)
  mkdir -p "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/munge"
  chmod 700 "$slurm_dir/munge"
  # Ports of this run only (a second cluster on the machine, or a real slurmd, keeps its own).
  local base=$((20000 + ($$ % 20000)))
  local memory_mb
  memory_mb=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
  cat > "$slurm_dir/slurm.conf" <<CONF
ClusterName=claimragtest
SlurmctldHost=$slurm_node(127.0.0.1)
SlurmctldPort=$base
SlurmdPort=$((base + 1))
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
KillWait=5
PlugStackConfig=$slurm_dir/plugstack.conf
NodeName=$slurm_node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory_mb State=UNKNOWN
PartitionName=test Nodes=$slurm_node Default=YES MaxTime=INFINITE State=UP
CONF
  : > "$slurm_dir/plugstack.conf"
  export SLURM_CONF=$slurm_dir/slurm.conf
  dd if=/dev/urandom of="$slurm_dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$slurm_dir/munge/munge.key"
  munged --force --key-file="$slurm_dir/munge/munge.key" --socket="$slurm_dir/munge/munge.socket" \
    --pid-file="$slurm_dir/munge/munged.pid" --log-file="$slurm_dir/munge/munged.log" --seed-file="$slurm_dir/munge/munged.seed"
  wait_until 10 test -S "$slurm_dir/munge/munge.socket"
  slurmctld -f "$SLURM_CONF"
  wait_until 20 scontrol ping
  slurmd -f "$SLURM_CONF"
  wait_until 60 node_idle || { tail -20 "$slurm_dir/slurmctld.log" "$slurm_dir/slurmd.log" >&2; return 1; }
}

# Stops each daemon by the PID its pid file names, slurmd first, then waits (bounded) for it to go.
stop_slurm() {
  local file pid tries
  for file in "$slurm_dir/slurmd.pid" "$slurm_dir/slurmctld.pid" "$slurm_dir/munge/munged.pid"; do
    [ -f "$file" ] || continue
    pid=$(cat "$file")
    [ -n "$pid" ] || continue
    kill "$pid" 2> /dev/null || continue
    for ((tries = 0; tries < 40; tries++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2> /dev/null || true
  done
}
