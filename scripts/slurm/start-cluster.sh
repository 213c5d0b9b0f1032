#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine (for the scale-out tests, or to try the job
# scripts): munged, slurmctld and slurmd started by hand as root — containers have no systemd.
# Idempotent: daemons already running are left alone. Installs slurm-wlm and munge (Debian) if
# missing. Container pitfalls it avoids: cgroup plugins (proctrack/linuxproc, task/none), munged
# as the munge user with /run/munge made first, the controller and node on 127.0.0.1, no
# accounting daemon (poll with squeue).
set -euo pipefail
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
# One start at a time: two callers at once (parallel tests) would both see no munged and start
# two, and the second fails on munged's socket lock. The daemons must not inherit the lock (9>&-).
exec 9>/tmp/harness-slurm-start.lock
flock 9
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "installing slurm-wlm and munge (Debian)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq slurm-wlm munge >/dev/null
fi
host=$(hostname)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024) - 1024}' /proc/meminfo)
$sudo mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge /etc/munge
$sudo chown slurm:slurm /var/spool/slurmctld /var/log/slurm
$sudo chown munge:munge /run/munge /etc/munge
if [ ! -f /etc/munge/munge.key ]; then
  $sudo dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  $sudo chown munge:munge /etc/munge/munge.key
  $sudo chmod 400 /etc/munge/munge.key
fi
$sudo tee /etc/slurm/slurm.conf >/dev/null <<CONF
ClusterName=harness
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
KillWait=5
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
pgrep -x munged >/dev/null || $sudo runuser -u munge -- /usr/sbin/munged 9>&-
pgrep -x slurmctld >/dev/null || $sudo /usr/sbin/slurmctld 9>&-
pgrep -x slurmd >/dev/null || $sudo /usr/sbin/slurmd 9>&-
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qE "idle|mixed|allocated"; then
    echo "slurm is up: $(sinfo -h -o '%P %D %T %C')"
    exit 0
  fi
  sleep 1
done
echo "slurm did not come up; see /var/log/slurm/" >&2
exit 1
