"""Where a result came from: the commit of the code and the machine that measured it.

>>> sorted(hardware())[:3]
['chromadb', 'cores', 'cpu']
"""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = ["git_commit", "hardware"]


@functools.cache
def git_commit() -> str | None:
    """The commit of the checkout the code runs from, or None outside a git checkout (one
    git call per process)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            # The checkout the code runs from, wherever the benchmark is started.
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def hardware() -> dict[str, Any]:
    """CPU model, cores and the library versions that decide inference speed."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    versions = {}
    for pkg in ("torch", "onnxruntime", "sentence-transformers", "chromadb"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = "not installed"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        **versions,
    }
