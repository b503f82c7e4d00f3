# Sourced (POSIX sh) by the benchmark scripts from the repository root: sets SCHED to the command prefix that runs a
# benchmark under SCHED_BATCH, as deploy/systemd runs the services (CPUSchedulingPolicy=batch; docs/deployment.md,
# "CPU scheduling"): a process woken by a message then waits for the running one's time slice instead of preempting
# it, once per message on shared cores. Every process the benchmark starts inherits the policy.
# VPKI_BENCH_SCHED=other keeps the default policy.
SCHED=""
if [ "${VPKI_BENCH_SCHED:-batch}" = batch ]; then
  if command -v chrt >/dev/null 2>&1; then
    SCHED="chrt --batch 0"
  else
    echo "chrt (util-linux) not found: the run keeps the default scheduling policy" >&2
  fi
fi
echo "scheduling policy: ${SCHED:-the default}" >&2
