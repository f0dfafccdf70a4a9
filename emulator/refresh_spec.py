"""Replace the shipped copy of Discord's OpenAPI description with a newer one.

    python -m emulator.refresh_spec path/to/openapi.json --snapshot 2026-07-18 [--license LICENSE]

Take ``specs/openapi.json`` (and ``LICENSE``) from a checkout of
https://github.com/discord/discord-api-spec. The new file is checked first (an OpenAPI 3.1
document the emulator can compile), then copied into ``emulator/discord_api/`` with a note of
where it came from, its snapshot date, its API version and its SHA-256 (a test keeps the note and
the file in step). Run the test suite afterwards: a newer description may reject requests the
old one accepted, and that is worth knowing before Discord does.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from emulator.spec import BUNDLED_SPEC_DIR, OpenApiSpec

UPSTREAM = "https://github.com/discord/discord-api-spec"

NOTE_TEMPLATE = """\
# Discord's HTTP API description, as the emulator checks it

`openapi.json` is Discord's own published OpenAPI 3.1 description of its HTTP API, from
{upstream} (file `specs/openapi.json`),
under the MIT licence in `LICENSE` beside it (copyright Discord). It is data, not code of this
project, and ships with the package so that the emulator validates every request the bot makes,
in a fresh clone or an installed copy alike. `DISCORD_OPENAPI_SPEC` may point the emulator at
another copy.

- Snapshot: {snapshot}
- API version: {title}, version {version} (OpenAPI {openapi})
- SHA-256: `{sha256}`

To refresh it from a newer copy, then run the tests:

    python -m emulator.refresh_spec path/to/specs/openapi.json --snapshot YYYY-MM-DD \\
        --license path/to/LICENSE
"""


class SpecRefreshError(ValueError):
    """The offered file is not a description the emulator can use."""


def describe(document: Any) -> dict[str, str]:
    """The title, API version and OpenAPI version of ``document``, after checking its shape."""
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        raise SpecRefreshError("not an OpenAPI document: no 'paths' object")
    openapi = str(document.get("openapi", ""))
    if not openapi.startswith("3.1"):
        raise SpecRefreshError(f"OpenAPI {openapi or '(none)'}: the emulator reads 3.1")
    info = document.get("info", {})
    if not isinstance(info, dict) or "version" not in info:
        raise SpecRefreshError("no info.version: which API version is this?")
    return {
        "title": str(info.get("title", "Discord HTTP API")),
        "version": str(info["version"]),
        "openapi": openapi,
    }


def note_for(data: bytes, snapshot: datetime.date) -> str:
    """The README text recording where ``data`` (the description's bytes) came from."""
    facts = describe(json.loads(data))
    return NOTE_TEMPLATE.format(
        upstream=UPSTREAM,
        snapshot=snapshot.isoformat(),
        sha256=hashlib.sha256(data).hexdigest(),
        **facts,
    )


def refresh(
    source: Path,
    snapshot: datetime.date,
    *,
    licence: Path | None = None,
    into: Path = BUNDLED_SPEC_DIR,
) -> str:
    """Check ``source`` and install it (and ``licence``) in ``into``; returns the new note."""
    data = source.read_bytes()
    try:
        document = json.loads(data)
    except json.JSONDecodeError as error:
        raise SpecRefreshError(f"{source} is not JSON: {error}") from error
    note = note_for(data, snapshot)
    try:
        spec = OpenApiSpec(document, source=source)
    except (KeyError, TypeError) as error:
        raise SpecRefreshError(f"the emulator cannot compile it (missing {error})") from error
    if spec.match("/channels/1/messages") is None:
        raise SpecRefreshError("no /channels/{channel_id}/messages route: is this Discord's API?")
    into.mkdir(parents=True, exist_ok=True)
    (into / "openapi.json").write_bytes(data)
    if licence is not None and licence.resolve() != (into / "LICENSE").resolve():
        shutil.copyfile(licence, into / "LICENSE")
    (into / "README.md").write_text(note, encoding="utf-8")
    return note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m emulator.refresh_spec", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("source", type=Path, help="the new openapi.json")
    parser.add_argument(
        "--snapshot",
        type=datetime.date.fromisoformat,
        required=True,
        help="the date of the upstream commit it was taken from (YYYY-MM-DD)",
    )
    parser.add_argument("--license", dest="licence", type=Path, help="the upstream LICENSE file")
    parser.add_argument("--into", type=Path, default=BUNDLED_SPEC_DIR, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    try:
        note = refresh(options.source, options.snapshot, licence=options.licence, into=options.into)
    except (OSError, SpecRefreshError) as error:
        print(f"refresh_spec: {error}", file=sys.stderr)
        return 2
    print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
