"""Where the data folders (fakelibc/, rules/, cost_models/) live.

They sit at the top of the source tree when the package is installed editable;
a regular install puts them under ``<prefix>/share/accsat`` (pyproject's
data-files); the setting ``data`` (settings.Environment) points elsewhere when they
were moved.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .settings import Environment, by_name, environment

if sys.version_info >= (3, 11):  # the TOML reader of rules/ and cost_models/
    import tomllib
else:  # Python 3.10: the same parser as a package
    import tomli as tomllib

__all__ = ["data_dir", "data_root", "tomllib"]


def data_root() -> Path:
    moved = environment("data")
    if moved:
        return Path(moved)
    tree = Path(__file__).resolve().parent.parent
    if (tree / "rules").is_dir():
        return tree
    import sysconfig

    installed = Path(sysconfig.get_path("data")) / "share" / "accsat"
    return installed if installed.is_dir() else tree


def data_dir(name: str) -> Path:
    path = data_root() / name
    if not path.is_dir():
        raise FileNotFoundError(
            f"accsat data folder {name}/ not found under {data_root()}; "
            "install accsat with 'pip install -e .' from its source tree or set "
            + by_name(Environment)["data"].env
        )
    return path
