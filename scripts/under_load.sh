#!/usr/bin/env bash
# A command run while every core is busy → its exit code, its wall time and the load average it met.
#
# WHY: no test may fail because the machine is busy (CONTRIBUTING.md, "Tests"); CI runs on shared 2-core
# machines. This starts one busy loop per core (or LOADERS of them), each bounded by MAX_S seconds so nothing
# outlives a crashed run, runs the command, stops the loops and says how it went.
#
#   scripts/under_load.sh make check
#   LOADERS=4 MAX_S=3600 scripts/under_load.sh make test
set -uo pipefail
loaders=${LOADERS:-$(nproc)}
max_s=${MAX_S:-5400}
pids=()
for _ in $(seq "$loaders"); do
  timeout "$max_s" sh -c 'while :; do :; done' &
  pids+=($!)
done
stop() { kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null; }
trap stop EXIT INT TERM
began=$(date +%s)
"$@"
code=$?
ended=$(date +%s)
echo "under_load: '$*' exited $code after $((ended - began)) s beside $loaders busy loop(s); load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $code
