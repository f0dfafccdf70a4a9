"""The spoken phrases kept on disk, keyed by (engine, voice, language, text), within a size
bound: the least recently used go first. A night's phrases are made once; a restart, or the
next night with the same deck, finds them."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)

# A few thousand phrases of Opus at 64 kbit/s (about 8 KB a second of speech).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
SUFFIX = ".speech"


def cache_key(engine: str, voice: str, language: str, text: str) -> str:
    """The file name of a phrase (a hash: texts may hold any character)."""
    blob = json.dumps([engine, voice, language, text], ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


class SpeechCache:
    """Files in ``folder``, at most ``max_bytes`` together (the oldest read are removed first).
    Thread-safe: the machinery's worker threads read and write it."""

    def __init__(self, folder: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        folder.mkdir(parents=True, exist_ok=True)
        self._sizes = {
            path.name: path.stat().st_size for path in folder.glob(f"*{SUFFIX}") if path.is_file()
        }
        self.hits = 0
        self.misses = 0

    @property
    def total_bytes(self) -> int:
        """The bytes the cache holds now."""
        return sum(self._sizes.values())

    def get(self, key: str) -> bytes | None:
        """The bytes stored under ``key``, or None; a hit counts as a use (for the bound)."""
        path = self.folder / f"{key}{SUFFIX}"
        try:
            data = path.read_bytes()
            os.utime(path)
        except OSError:
            with self._lock:
                self.misses += 1
            return None
        with self._lock:
            self.hits += 1
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store ``data`` under ``key`` (written whole, then renamed into place), then remove
        the least recently used files beyond the bound."""
        name = f"{key}{SUFFIX}"
        temporary = self.folder / f".{key}.{threading.get_ident()}.tmp"
        try:
            temporary.write_bytes(data)
            temporary.replace(self.folder / name)
        except OSError as error:
            log.warning("could not keep a spoken phrase in %s: %s", self.folder, error)
            temporary.unlink(missing_ok=True)
            return
        with self._lock:
            self._sizes[name] = len(data)
            if self.total_bytes > self.max_bytes:
                self._trim()

    def _trim(self) -> None:
        by_use = []
        for name in self._sizes:
            try:
                by_use.append((os.stat(self.folder / name).st_mtime_ns, name))
            except OSError:
                by_use.append((0, name))
        for _, name in sorted(by_use):
            if self.total_bytes <= self.max_bytes:
                break
            (self.folder / name).unlink(missing_ok=True)
            del self._sizes[name]
