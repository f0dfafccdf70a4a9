"""Discord's message limits that its OpenAPI spec does not express (or states more loosely)."""

from __future__ import annotations

import unicodedata
from typing import Any

from emulator.model import MessageFlag, iter_components

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL_CHARACTERS = 6000
MAX_ACTION_ROWS = 5
MAX_COMPONENTS = 25
MAX_COMPONENTS_V2 = 40
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_ATTACHMENTS = 10
_SELECT_TYPES = frozenset({3, 5, 6, 7, 8})


def _embed_characters(embed: dict[str, Any]) -> int:
    total = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    for field in embed.get("fields") or []:
        total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
    total += len(str((embed.get("footer") or {}).get("text") or ""))
    total += len(str((embed.get("author") or {}).get("name") or ""))
    return total


def message_rule_errors(payload: dict[str, Any], flags: int = 0) -> list[str]:
    """What Discord would reject in a message body (create, edit or interaction response)."""
    errors: list[str] = []
    content = payload.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        errors.append(f"content: must be {MAX_CONTENT} or fewer in length (got {len(content)})")

    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors.append(f"embeds: at most {MAX_EMBEDS} embeds (got {len(embeds)})")
    total = sum(_embed_characters(embed) for embed in embeds if isinstance(embed, dict))
    if total > MAX_EMBED_TOTAL_CHARACTERS:
        errors.append(
            f"embeds: total text must be {MAX_EMBED_TOTAL_CHARACTERS} or fewer characters (got {total})"
        )

    attachments = payload.get("attachments") or []
    if len(attachments) > MAX_ATTACHMENTS:
        errors.append(f"attachments: at most {MAX_ATTACHMENTS} (got {len(attachments)})")

    components = payload.get("components") or []
    errors.extend(component_rule_errors(components, flags | int(payload.get("flags") or 0)))
    return errors


def component_rule_errors(components: list[dict[str, Any]], flags: int) -> list[str]:
    errors: list[str] = []
    everything = list(iter_components(components))
    if flags & MessageFlag.IS_COMPONENTS_V2:
        if len(everything) > MAX_COMPONENTS_V2:
            errors.append(
                f"components: at most {MAX_COMPONENTS_V2} in total (got {len(everything)})"
            )
    else:
        if len(components) > MAX_ACTION_ROWS:
            errors.append(
                f"components: at most {MAX_ACTION_ROWS} action rows (got {len(components)})"
            )
        for index, row in enumerate(components):
            if row.get("type") != 1:
                errors.append(
                    f"components/{index}: top-level components must be action rows (type 1) "
                    "unless the IS_COMPONENTS_V2 flag is set"
                )
                continue
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in _SELECT_TYPES]
            if selects and len(children) > 1:
                errors.append(f"components/{index}: a select menu must be alone in its action row")
            if len(children) > MAX_ROW_BUTTONS:
                errors.append(f"components/{index}: at most {MAX_ROW_BUTTONS} components per row")
            if not children:
                errors.append(f"components/{index}: an action row needs at least one component")
        non_rows = [c for c in everything if c.get("type") != 1]
        if len(non_rows) > MAX_COMPONENTS:
            errors.append(f"components: at most {MAX_COMPONENTS} in total (got {len(non_rows)})")

    seen: set[str] = set()
    for component in everything:
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if len(str(custom_id)) > MAX_CUSTOM_ID:
            errors.append(
                f"custom_id {str(custom_id)[:20]!r}...: must be {MAX_CUSTOM_ID} or fewer in length"
            )
        if custom_id in seen:
            errors.append(f"custom_id {custom_id!r} is used twice in one message")
        seen.add(str(custom_id))
    return errors


# Application commands (Interactions: Application Commands), beyond what the spec states.
MAX_COMMAND_CHARACTERS = 8000  # name, description and values of a command, its options, choices
MAX_CHOICE_STRING_VALUE = 100
MAX_COMMANDS_PER_TYPE = {1: 100, 2: 15, 3: 15}  # CHAT_INPUT, USER, MESSAGE, per scope
_NAME_PUNCTUATION = frozenset("-_'")
_OPTION_CONTAINERS = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def _in_deva_or_thai(character: str) -> bool:
    code = ord(character)
    return (
        0x0900 <= code <= 0x097F  # Devanagari
        or 0xA8E0 <= code <= 0xA8FF  # Devanagari Extended
        or 0x11B00 <= code <= 0x11B5F  # Devanagari Extended-A
        or 0x0E00 <= code <= 0x0E7F  # Thai
    )


def command_name_errors(name: object, where: str) -> list[str]:
    """Discord's naming rule for CHAT_INPUT commands and options: ``^[-_'\\p{L}\\p{N}
    \\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, and lowercase wherever a letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return [f"{where}: a name must be 1-32 characters, got {name!r}"]
    problems: list[str] = []
    for character in name:
        category = unicodedata.category(character)
        allowed = (
            character in _NAME_PUNCTUATION
            or category[0] in ("L", "N")
            or _in_deva_or_thai(character)
        )
        if not allowed:
            problems.append(f"{where}: {name!r} has {character!r}, which a name may not contain")
            break
    if name != name.lower():
        problems.append(f"{where}: {name!r} must be lowercase")
    return problems


def _longest(text: object, localizations: object) -> int:
    """A text's length for the size limit: its longest localization, the default included."""
    lengths = [len(str(text or ""))]
    if isinstance(localizations, dict):
        lengths.extend(len(str(value)) for value in localizations.values())
    return max(lengths)


def _option_errors(options: list[dict[str, Any]], where: str) -> tuple[list[str], int]:
    problems: list[str] = []
    characters = 0
    names = [option.get("name") for option in options]
    repeated = sorted({str(n) for n in names if names.count(n) > 1})
    if repeated:
        problems.append(f"{where}: option names must be unique, {repeated} repeat")
    for option in options:
        name = option.get("name")
        here = f"{where} {name}"
        problems.extend(command_name_errors(name, f"{here}: name"))
        for localized in (option.get("name_localizations") or {}).values():
            problems.extend(command_name_errors(localized, f"{here}: name_localizations"))
        description = option.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 100:
            problems.append(f"{here}: description must be 1-100 characters")
        characters += _longest(name, option.get("name_localizations"))
        characters += _longest(description, option.get("description_localizations"))
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            problems.append(f"{here}: autocomplete may not be set together with choices")
        for choice in choices:
            value = choice.get("value")
            if isinstance(value, str) and len(value) > MAX_CHOICE_STRING_VALUE:
                problems.append(
                    f"{here}: a string choice's value is at most {MAX_CHOICE_STRING_VALUE} "
                    f"characters (got {len(value)})"
                )
            characters += _longest(choice.get("name"), choice.get("name_localizations"))
            characters += len(str(value))
        if option.get("type") in _OPTION_CONTAINERS:
            nested, nested_characters = _option_errors(list(option.get("options") or []), here)
            problems.extend(nested)
            characters += nested_characters
    return problems, characters


def command_rule_errors(command: dict[str, Any]) -> list[str]:
    """What Discord refuses in one command that its spec does not state: the naming rule,
    a CHAT_INPUT description of 1-100 characters, unique option names, no autocomplete with
    choices, string choice values of at most 100 characters, and at most 8,000 characters in
    all (names, descriptions, values; the longest localization of each)."""
    kind = int(command.get("type") or 1)
    name = command.get("name")
    where = f"/{name}"
    if kind != 1:  # USER and MESSAGE commands may be mixed case and have spaces
        return []
    problems = command_name_errors(name, f"{where}: name")
    for localized in (command.get("name_localizations") or {}).values():
        problems.extend(command_name_errors(localized, f"{where}: name_localizations"))
    description = command.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        problems.append(f"{where}: a slash command's description must be 1-100 characters")
    option_problems, characters = _option_errors(list(command.get("options") or []), where)
    problems.extend(option_problems)
    characters += _longest(name, command.get("name_localizations"))
    characters += _longest(description, command.get("description_localizations"))
    if characters > MAX_COMMAND_CHARACTERS:
        problems.append(
            f"{where}: {characters} characters in names, descriptions and values; "
            f"at most {MAX_COMMAND_CHARACTERS}"
        )
    return problems


# Embeds: "Leading and trailing whitespace characters are not included (they are trimmed
# automatically)" (Messages: Embed Limits).
def trim_embeds(payload: Any) -> Any:
    """``payload`` with the text of its embeds trimmed as Discord trims it (a copy; the same
    object when there is nothing to trim)."""
    if not isinstance(payload, dict) or not isinstance(payload.get("embeds"), list):
        return payload
    trimmed = [
        _trim_embed(embed) if isinstance(embed, dict) else embed for embed in payload["embeds"]
    ]
    return {**payload, "embeds": trimmed}


def _strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def _trim_embed(embed: dict[str, Any]) -> dict[str, Any]:
    result = dict(embed)
    for key in ("title", "description"):
        if key in result:
            result[key] = _strip(result[key])
    for key, text in (("footer", "text"), ("author", "name")):
        part = result.get(key)
        if isinstance(part, dict) and text in part:
            result[key] = {**part, text: _strip(part[text])}
    fields = result.get("fields")
    if isinstance(fields, list):
        result["fields"] = [
            {key: _strip(value) if key in ("name", "value") else value for key, value in f.items()}
            if isinstance(f, dict)
            else f
            for f in fields
        ]
    return result
