"""Discord's message limits that its OpenAPI spec does not express (or states more loosely)."""

from __future__ import annotations

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
