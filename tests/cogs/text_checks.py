"""Text helpers for the tests of the cantor's verses and the Housie call names."""

import re
import unicodedata

DISCORD_MESSAGE_LIMIT = 2000  # characters in a message's content


def fold(text: str) -> str:
    """``text`` in lower case without accents (é -> e, ñ -> n, ü -> u), for comparisons."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(text: str) -> list[str]:
    """The words of ``text``, folded; apostrophes and hyphens split words."""
    return re.findall(r"[a-z0-9]+", fold(text))


def common_prefix(a: str, b: str) -> int:
    length = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        length += 1
    return length


def reveals(word: str, name_word: str) -> bool:
    """Whether ``word`` gives away ``name_word``: the same word, or a form of it (plural,
    diminutive: "arrow" for "arrows", "gallina" for "gallo", "sunrise" for "sun")."""
    if word.startswith(name_word):
        return True
    shared = common_prefix(word, name_word)
    return len(name_word) >= 4 and shared >= len(name_word) - 1
