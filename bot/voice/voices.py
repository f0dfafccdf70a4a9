"""The voices the bot can speak with, read with the settings (``bot.config``): the languages,
espeak-ng's voice for each, and the Piper voice models an operator downloaded."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Language = Literal["en", "es"]
LANGUAGES: tuple[Language, ...] = ("en", "es")

# espeak-ng's voices: British English, as callers of number games speak it, and Latin American
# Spanish, as card games of Mexico are sung. Both ship with espeak-ng.
ESPEAK_VOICES: Mapping[Language, str] = {"en": "en-gb", "es": "es-419"}


class PiperModelError(ValueError):
    """A Piper voice model file that cannot be used; the message says why."""


@dataclass(frozen=True)
class PiperVoice:
    """A Piper voice model the operator downloaded (``x.onnx`` with its ``x.onnx.json``)."""

    model: Path
    language: Language

    @property
    def config(self) -> Path:
        """The model's settings file beside it."""
        return Path(f"{self.model}.json")


def read_piper_voice(model: Path) -> PiperVoice:
    """The Piper voice of ``model``, its language read from the ``.onnx.json`` beside it
    (``language.code`` such as ``en_GB`` or ``es_MX``). Raises ``PiperModelError``."""
    if not model.is_file():
        raise PiperModelError(f"{model} is not a file")
    config = Path(f"{model}.json")
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PiperModelError(
            f"{config} is missing (download the voice's .onnx.json with its .onnx)"
        ) from None
    except (OSError, ValueError) as error:
        raise PiperModelError(f"cannot read {config} ({error})") from None
    language_settings = settings.get("language") if isinstance(settings, dict) else None
    code = language_settings.get("code") if isinstance(language_settings, dict) else None
    if not isinstance(code, str) or not code:
        raise PiperModelError(f"{config} names no language (language.code)")
    language = code.replace("-", "_").split("_")[0].lower()
    for known in LANGUAGES:
        if language == known:
            return PiperVoice(model, known)
    raise PiperModelError(f"{model.name} speaks {code}; the games speak English or Spanish")
