"""``python -m bot.ops.healthcheck [URL]``: a container's health check, without curl.

Exit code 0 when ``/healthz`` answers 200 (the bot: its gateway connected and its database
answering; the REST proxy: serving), 1 otherwise, with one line saying why. Without ``URL``,
the bot's own endpoint, from ``GAMENIGHT_METRICS_PORT`` and ``GAMENIGHT_METRICS_HOST`` read as
the bot reads them (the environment, then ``./.env``); the image sets the port (deploy/).
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence

from bot.config import setting_values

TIMEOUT = 8.0  # seconds; /healthz itself gives the database 2 s
# An endpoint listening on every address is reached on this machine's own.
LOOPBACK = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}  # noqa: S104 - read, not bound


def own_endpoint(values: Mapping[str, str]) -> str:
    """The URL of the bot's ``/healthz`` from its settings; ``ValueError`` saying why not."""
    port = values.get("GAMENIGHT_METRICS_PORT", "").strip()
    if not port:
        raise ValueError(
            "GAMENIGHT_METRICS_PORT is not set, so the bot serves no /healthz: set it (the "
            "image sets 8081; a settings file with an empty GAMENIGHT_METRICS_PORT= undoes that)"
        )
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"GAMENIGHT_METRICS_PORT must be a port number 1-65535, got {port!r}")
    host = values.get("GAMENIGHT_METRICS_HOST", "").strip()
    host = LOOPBACK.get(host, host)
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"http://{host}:{int(port)}/healthz"


def check(url: str, timeout: float = TIMEOUT) -> tuple[bool, str]:
    """Whether ``url`` answers 200, and a line saying what it answered."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # noqa: S310 - http only
            body = answer.read(2000).decode("utf-8", "replace")
            return answer.status == 200, f"{answer.status} {body}"
    except urllib.error.HTTPError as error:  # 503 and the like: the body says which part
        return False, f"{error.code} {error.read(2000).decode('utf-8', 'replace')}"
    except (OSError, ValueError) as error:
        return False, f"cannot reach {url}: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    """Check ``argv[0]`` (a ``/healthz`` URL) or the bot's own endpoint; the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if len(arguments) > 1 or any(a.startswith("-") for a in arguments):
        print("usage: python -m bot.ops.healthcheck [URL of a /healthz]", file=sys.stderr)
        return 1
    if arguments:
        url = arguments[0]
    else:
        try:
            url = own_endpoint(setting_values())
        except ValueError as error:
            print(f"unhealthy: {error}", file=sys.stderr)
            return 1
    healthy, said = check(url)
    line = " ".join(said.split())  # one line, whatever the body's layout
    verdict = "healthy" if healthy else "unhealthy"
    print(f"{verdict}: {line}", file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
