"""``accsat check`` on a kernel whose every state would take gigabytes (issue 35: an
image-tracking loop of 500 iterations around an m x n loop that calls an external
function and stores into the image; each opaque call records the memory it could see)
ends with a verdict, under a memory limit, never a traceback: a state over the
interpreter's budget is skipped and counted."""

from __future__ import annotations

import resource
import subprocess
import sys

TRACK = """\
float h(float);
void track(float *restrict img, const float *restrict ref, int m, int n, int frames,
           float *score)
{
#pragma acc parallel loop
  for (int f = 0; f < frames; f++) {
    float s = 0.0f;
    for (int it = 0; it < 500; it++) {
      for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
          float d = img[i * n + j] - ref[i * n + j];
          img[i * n + j] = h(img[i * n + j] * 0.5f + d * 0.25f) + d * d * 0.125f;
          s += d * d + d * 0.5f;
        }
      }
    }
    score[f] = s;
  }
}
"""
LIMIT = 500 * 2**20  # bytes of address space: the check must fit


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def test_image_tracking_kernel_ends_with_a_verdict_under_a_memory_limit(tmp_path):
    path = tmp_path / "track.c"
    path.write_text(TRACK)
    cmd = [sys.executable, "-m", "accsat.cli", "check", str(path), "--variant", "cse"]
    done = subprocess.run(
        [*cmd, "--trials", "3"],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_limited,
    )
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith(f"{path}:"))
    assert row.split()[-1] in ("pass", "weak")
