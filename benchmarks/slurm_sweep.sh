#!/usr/bin/env bash
# Issue 14's acceptance run: NPB CG and EP, class S, orig + accsat, on a one-node Slurm
# cluster started here (tests/sweep/slurm_cluster.py; root, slurm-wlm and munge needed).
#
#   benchmarks/slurm_sweep.sh [NPB_ROOT] [WORK]      (default /work/npb/src, /tmp/accsat-slurm-bench)
#
# 1. the sweep locally (--executor local), timed;
# 2. the same sweep through Slurm with --max-jobs 2, timed (fresh output folder);
# 3. interruption: the Slurm sweep again in a fresh folder, SIGTERM to the driver once the
#    first cell is back, then the same command again: it waits for the tasks still queued or
#    running, submits nothing new, and every cell has exactly one job outcome;
# 4. the verified cells of 1, 2 and 3 compared; the cluster stopped.
# Wall times vary with whatever else runs: compare them on a quiet machine, several times.
set -euo pipefail
cd "$(dirname "$0")/.."
npb=${1:-/work/npb/src}
work=${2:-/tmp/accsat-slurm-bench}
args=(--npb-root "$npb" --benchmarks CG,EP --classes S --variants orig,accsat --runs 3
      --no-progress)

rm -rf "$work" && mkdir -p "$work"
python3 -m tests.sweep.slurm_cluster start "$work/cluster"
export SLURM_CONF=$work/cluster/slurm.conf
trap 'python3 -m tests.sweep.slurm_cluster stop "$work/cluster"' EXIT

seconds() { local t0=$SECONDS; "$@" > "$work/last.log" 2>&1; echo $((SECONDS - t0)); }

local_s=$(seconds accsat bench npb "${args[@]}" --out "$work/local")
slurm_s=$(seconds accsat bench npb "${args[@]}" --out "$work/slurm" --executor slurm --max-jobs 2)

accsat bench npb "${args[@]}" --out "$work/resume" --executor slurm --max-jobs 2 \
    > "$work/interrupted.log" 2>&1 &
driver=$!
until compgen -G "$work/resume/cells/*/result.json" > /dev/null; do sleep 0.2; done
kill -TERM "$driver"
wait "$driver" || echo "driver ended with status $? (130: interrupted)"
accsat bench npb "${args[@]}" --out "$work/resume" --executor slurm --max-jobs 2 \
    > "$work/resumed.log" 2>&1

python3 - "$work" "$local_s" "$slurm_s" <<'EOF'
import csv, json, sys
from pathlib import Path

work, local_s, slurm_s = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
def cells(name):
    with open(work / name / "results.csv") as f:
        return {(r["benchmark"], r["variant"]): (r["status"], r["verified"], r["executor"], r["job_id"])
                for r in csv.DictReader(f)}
local, slurm, resume = cells("local"), cells("slurm"), cells("resume")
for key in sorted(local):
    print(*key, "local:", local[key][:2], "slurm:", slurm[key], "resumed:", resume[key])
same = {k: v[:2] for k, v in local.items()} == {k: v[:2] for k, v in slurm.items()} \
    == {k: v[:2] for k, v in resume.items()}
outcomes = {}
for sub in (work / "resume" / "slurm").glob("*/job.json"):
    job = json.loads(sub.read_text())
    for i, cell in enumerate(job["cells"]):
        if (sub.parent / f"{i}.json").exists():
            key = (cell["benchmark"], cell["variant"])
            outcomes[key] = outcomes.get(key, 0) + 1
print(f"same verified cells local / slurm / resumed: {same}")
print(f"job outcomes per cell after the resume (1 = none done twice): {outcomes}")
print(f"submissions of the resumed sweep: {len(list((work / 'resume' / 'slurm').glob('*/job.json')))}")
print(f"wall time: local {local_s} s, slurm --max-jobs 2 {slurm_s} s")
EOF
echo "logs: $work/interrupted.log $work/resumed.log; slurmctld: $work/cluster/log/slurmctld.log"
