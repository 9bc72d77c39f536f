"""Units of the NPB harness: NPB's closing report and the tree's layout and copies.
The sweep engine's own units are under tests/sweep/."""

from __future__ import annotations

import shutil
from pathlib import Path

from npb_harness.run import parse
from npb_harness.tree import private_copy, source_dir

FIXTURE = Path(__file__).parent / "fixtures" / "npb_mini"

NPB_TAIL = """
 XX Benchmark Completed.
 Class           =                        W
 Size            =                   64x 64x 64
 Time in seconds =                     2.51
 Mop/s total     =                   812.34
 Verification    =               SUCCESSFUL
"""


def test_parse_npb_output():
    out = parse(NPB_TAIL)
    assert (out.verification, out.seconds, out.mops, out.cls) == ("SUCCESSFUL", 2.51, 812.34, "W")
    assert out.verified
    bad = parse(NPB_TAIL.replace("SUCCESSFUL", "UNSUCCESSFUL"))
    assert bad.verification == "UNSUCCESSFUL" and not bad.verified
    assert parse("Segmentation fault").verification is None


def test_tree_layout_and_private_copy(tmp_path):
    assert source_dir(FIXTURE / "LX").name == "LX-HP"
    assert source_dir(FIXTURE / "ST").name == "ST"
    user = tmp_path / "user"
    shutil.copytree(FIXTURE, user)
    (user / "ST" / "ST" / "st.o").write_text("stale")
    (user / "ST" / "ST" / "npbparams.h").write_text("stale")
    (user / "ST" / "sys" / "setparams").write_text("a binary from elsewhere")
    src = private_copy(user, "ST", tmp_path / "copy")
    assert src == tmp_path / "copy" / "ST" and (src / "st.c").is_file()
    assert not (src / "st.o").exists() and not (src / "npbparams.h").exists()
    assert not (tmp_path / "copy" / "sys" / "setparams").exists()
    assert (tmp_path / "copy" / "sys" / "setparams.c").is_file()
