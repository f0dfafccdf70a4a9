"""What the sandbox's tests share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def sandbox_without(module: str, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    """``python -m bot sandbox arguments`` in a new interpreter where ``module`` cannot be
    imported (as on a machine without it installed)."""
    script = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from bot.sandbox import main\n"
        f"sys.exit(main({arguments!r}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
