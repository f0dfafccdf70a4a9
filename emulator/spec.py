"""Validate HTTP requests against Discord's published OpenAPI description of its API.

The spec (OpenAPI 3.1, whose schemas are JSON Schema 2020-12) is loaded and its routes compiled
once per process; a validator per (operation, media type) is built on first use and cached, and
so is the verdict on each distinct body (a rush of identical interaction callbacks is validated
once: validation is a pure function of the operation and the body).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import logging
import os
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

try:  # the optional "emulator" extra: without it the emulator runs with validation off
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ModuleNotFoundError as missing:
    _VALIDATOR_MISSING: str | None = missing.name
else:
    _VALIDATOR_MISSING = None

_log = logging.getLogger(__name__)

SPEC_ENV_VAR = "DISCORD_OPENAPI_SPEC"
_SPEC_URI = "urn:discord-openapi"
_JSON_MEDIA = "application/json"
_LABELS = frozenset({"title", "description", "const"})
_HTTP_METHODS = ("get", "put", "post", "patch", "delete", "head", "options")
BODY_VERDICTS_KEPT = 4096  # distinct (operation, body) verdicts remembered


# Discord's description ships inside the package (with its licence and a note of its origin), so an
# installed copy or a fresh clone validates requests too; refresh it with `python -m
# emulator.refresh_spec`.
BUNDLED_SPEC_DIR = Path(__file__).resolve().parent / "discord_api"
BUNDLED_SPEC = BUNDLED_SPEC_DIR / "openapi.json"


INSTALL_HINT = "pip install 'gamenight[emulator]', or pip install jsonschema"


def validation_unavailable() -> str | None:
    """Why requests cannot be validated in this environment (a validator package is not
    installed), or None when they can."""
    if _VALIDATOR_MISSING is None:
        return None
    return f"{_VALIDATOR_MISSING} is not installed: {INSTALL_HINT}"


def default_spec_path() -> Path:
    """``$DISCORD_OPENAPI_SPEC``, else the copy shipped in the package (:data:`BUNDLED_SPEC`)."""
    override = os.environ.get(SPEC_ENV_VAR, "").strip()
    if override:
        return Path(override)
    return BUNDLED_SPEC


@dataclass(frozen=True)
class RouteMatch:
    """A request path matched to one of the spec's path templates."""

    template: str
    path_params: dict[str, str]


@dataclass(frozen=True)
class _CompiledPath:
    template: str
    pattern: re.Pattern[str]
    literal_segments: int


class RouteTable:
    """Matches request paths to path templates such as ``/channels/{channel_id}/messages``."""

    def __init__(self, templates: Iterable[str]) -> None:
        compiled = []
        for template in templates:
            regex = "".join(
                f"(?P<{part[1:-1]}>[^/]+)" if part.startswith("{") else re.escape(part)
                for part in re.split(r"(\{[^}]+\})", template)
            )
            literal = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            compiled.append(_CompiledPath(template, re.compile(f"^{regex}$"), literal))
        # Literal segments win over parameters: /users/@me before /users/{user_id}.
        compiled.sort(key=lambda entry: -entry.literal_segments)
        self._paths = compiled

    def match(self, path: str) -> RouteMatch | None:
        for entry in self._paths:
            found = entry.pattern.match(path)
            if found:
                return RouteMatch(entry.template, found.groupdict())
        return None


def _relax_snowflakes(document: dict[str, Any]) -> None:
    """Accept integer snowflakes in requests, as Discord does.

    The spec types ``SnowflakeType`` as a digit string, yet Discord accepts JSON integers for ids
    in request bodies and discord.py sends some that way (attachment ids such as ``0`` in
    ``payload_json``); rejecting them would flag requests Discord accepts.
    """
    schemas = document["components"]["schemas"]
    strict = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [strict, {"type": "integer", "minimum": 0}]}


def _discriminator_values(document: dict[str, Any], branch: Any) -> list[Any] | None:
    """The values of the required ``type`` property that select ``branch``, or None."""
    schema = branch
    while isinstance(schema, dict) and set(schema) == {"$ref"} and schema["$ref"].startswith("#/"):
        target: Any = document
        for part in schema["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    if not isinstance(schema, dict) or "type" not in schema.get("required", []):
        return None
    kind = schema.get("properties", {}).get("type", {})
    if "const" in kind:
        return [kind["const"]]
    values = kind.get("enum")
    return list(values) if isinstance(values, list) and values else None


def _discriminate_unions(document: dict[str, Any]) -> int:
    """Rewrite unions told apart by a ``type`` property into if/then chains, and enumerations
    written as a ``oneOf`` of constants into ``enum``; returns how many.

    A ``oneOf`` of component kinds makes jsonschema validate the value against every kind (to
    prove exactly one matches), nested several levels deep: milliseconds per message. When each
    branch requires a ``type`` with its own values, "the branch whose type matches must hold"
    means the same, checks one branch, and reports that branch's errors.
    """
    rewritten = 0

    def rewrite(node: Any) -> Any:
        nonlocal rewritten
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: rewrite(value) for key, value in node.items()}
        constants = node.get("oneOf")
        if (
            isinstance(constants, list)
            and all(isinstance(c, dict) and "const" in c and set(c) <= _LABELS for c in constants)
            and len({repr(c["const"]) for c in constants}) == len(constants)
        ):
            # An enumeration spelled as a oneOf of labelled constants: the same as an enum.
            del node["oneOf"]
            values = [c["const"] for c in constants]
            if "enum" in node:
                node["allOf"] = [*node.get("allOf", []), {"enum": values}]
            else:
                node["enum"] = values
            rewritten += 1
        for keyword in ("oneOf", "anyOf"):
            branches = node.get(keyword)
            if not isinstance(branches, list) or len(branches) < 2:
                continue
            selectors = [_discriminator_values(document, branch) for branch in branches]
            flat = [value for values in selectors if values is not None for value in values]
            if any(values is None for values in selectors) or len(flat) != len(
                set(map(repr, flat))
            ):
                continue
            del node[keyword]
            node["allOf"] = [
                *node.get("allOf", []),
                {"type": "object", "required": ["type"], "properties": {"type": {"enum": flat}}},
                *(
                    {
                        "if": {"type": "object", "properties": {"type": {"enum": values}}},
                        "then": branch,
                    }
                    for values, branch in zip(selectors, branches, strict=True)
                ),
            ]
            rewritten += 1
        return node

    document["paths"] = rewrite(document["paths"])
    document["components"]["schemas"] = rewrite(document["components"]["schemas"])
    return rewritten


def _pointer(*segments: str) -> str:
    escaped = (segment.replace("~", "~0").replace("/", "~1") for segment in segments)
    return "#/" + "/".join(quote(segment, safe="") for segment in escaped)


class OpenApiSpec:
    """Discord's OpenAPI document with compiled routes and cached body validators."""

    def __init__(self, document: dict[str, Any], source: Path | None = None) -> None:
        self.source = source
        self.api_version = str(document.get("info", {}).get("version", "?"))
        self.document = copy.deepcopy(document)
        _relax_snowflakes(self.document)
        self.unions_rewritten = _discriminate_unions(self.document)
        resource: Resource[Any] = Resource.from_contents(
            self.document, default_specification=DRAFT202012
        )
        self._registry: Registry[Any] = Registry().with_resource(_SPEC_URI, resource)
        self._routes = RouteTable(self.document["paths"])
        # id(schema) -> (schema, its validator): path and query schemas live as long as the spec.
        self._value_validators: dict[int, tuple[Any, Draft202012Validator]] = {}
        self._body_verdicts: OrderedDict[tuple[str, ...], list[str]] = OrderedDict()

    def match(self, path: str) -> RouteMatch | None:
        """The spec path template for ``path`` (relative to the API base), or None."""
        return self._routes.match(path)

    def methods(self, template: str) -> list[str]:
        item = self.document["paths"][template]
        return [method.upper() for method in item if method in _HTTP_METHODS]

    def operation_id(self, template: str, method: str) -> str | None:
        operation = self.document["paths"][template].get(method.lower())
        return None if operation is None else str(operation.get("operationId", ""))

    def validate_request(
        self,
        method: str,
        path: str,
        query: Mapping[str, list[str]] | None = None,
        body: Any = None,
        media_type: str | None = None,
    ) -> tuple[RouteMatch | None, list[str]]:
        """Check route, method, path and query parameters and the JSON body; returns errors.

        ``body`` is the decoded JSON body (for multipart, the decoded ``payload_json`` part with
        ``media_type="multipart/form-data"``); None means no body was sent.
        """
        route = self.match(path)
        if route is None:
            return None, [f"{method} {path}: no such route in Discord's API"]
        item = self.document["paths"][route.template]
        operation = item.get(method.lower())
        if operation is None:
            allowed = ", ".join(self.methods(route.template))
            return route, [f"{method} {route.template}: method not allowed (spec allows {allowed})"]

        errors: list[str] = []
        parameters = {
            (param["name"], param["in"]): param
            for param in [*item.get("parameters", []), *operation.get("parameters", [])]
        }
        for name, value in route.path_params.items():
            param = parameters.get((name, "path"))
            if param is not None and not self._value_fits(param["schema"], value):
                errors.append(
                    f"{method} {route.template}: path parameter {name}={value!r} is invalid"
                )
        for name, values in (query or {}).items():
            param = parameters.get((name, "query"))
            if param is None:
                errors.append(f"{method} {route.template}: unknown query parameter {name!r}")
                continue
            errors.extend(
                f"{method} {route.template}: query parameter {name}={value!r} is invalid"
                for value in values
                if not self._value_fits(param["schema"], value)
            )
        errors.extend(self._body_errors(method, route.template, operation, body, media_type))
        return route, errors

    def _value_fits(self, schema: Mapping[str, Any], text: str) -> bool:
        """A path or query value is text; accept it if it reads as a value the schema allows."""
        known = self._value_validators.get(id(schema))
        if known is None or known[0] is not schema:
            known = schema, self._validator_for(json.dumps(schema, sort_keys=True))
            self._value_validators[id(schema)] = known
        validator = known[1]
        candidates: list[Any] = [text]
        if re.fullmatch(r"-?\d+", text):
            candidates.append(int(text))
        lowered = text.lower()
        if lowered in ("true", "1"):
            candidates.append(True)
        if lowered in ("false", "0"):
            candidates.append(False)
        return any(validator.is_valid(candidate) for candidate in candidates)

    def _body_errors(
        self,
        method: str,
        template: str,
        operation: Mapping[str, Any],
        body: Any,
        media_type: str | None,
    ) -> list[str]:
        request_body = operation.get("requestBody")
        where = f"{method} {template}"
        if request_body is None:
            if body not in (None, {}, b"", ""):
                return [f"{where}: takes no request body"]
            return []
        if body is None:
            if request_body.get("required", False):
                return [f"{where}: request body is required"]
            return []
        content = request_body["content"]
        chosen = media_type or "application/json"
        if chosen not in content:
            return [f"{where}: media type {chosen} not accepted (spec: {', '.join(content)})"]
        # payload_json of a multipart upload is validated as the JSON body (the multipart schema
        # only adds the files[n] parts).
        schema_media = "application/json" if "application/json" in content else chosen
        operation_key = (template, method.lower(), schema_media)
        try:
            key = (*operation_key, json.dumps(body, sort_keys=True, separators=(",", ":")))
        except (TypeError, ValueError):  # not JSON at all: judged below, and not remembered
            key = None
        if key is not None and (verdict := self._body_verdicts.get(key)) is not None:
            self._body_verdicts.move_to_end(key)
            return list(verdict)
        validator = self._operation_validator(*operation_key)
        errors = sorted(validator.iter_errors(body), key=lambda error: list(error.absolute_path))
        verdict = [f"{where}: {message}" for message in _messages(errors)][:10]
        if key is not None:
            self._body_verdicts[key] = verdict
            if len(self._body_verdicts) > BODY_VERDICTS_KEPT:
                self._body_verdicts.popitem(last=False)
        return list(verdict)

    def form_field_value(self, method: str, path: str, name: str, text: str) -> Any:
        """A multipart form field's text as the JSON value the route's body schema gives that
        field: the text if a string fits, else the first of its readings (an integer, a
        boolean, JSON) that does; the text when the field is unknown or nothing fits."""
        route = self.match(path)
        operation = (
            None if route is None else self.document["paths"][route.template].get(method.lower())
        )
        content = ((operation or {}).get("requestBody") or {}).get("content") or {}
        if route is None or _JSON_MEDIA not in content:
            return text
        base = _pointer("paths", route.template, method.lower(), "requestBody", "content")
        pointer = self._property_pointer(base[2:] + "/" + _pointer(_JSON_MEDIA)[2:], name)
        if pointer is None:
            return text
        validator = Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self._registry)
        candidates: list[Any] = [text]
        lowered = text.strip().lower()
        if lowered in ("true", "false"):
            candidates.append(lowered == "true")
        with contextlib.suppress(ValueError):
            candidates.append(json.loads(text))
        return next((c for c in candidates if validator.is_valid(c)), text)

    def _property_pointer(self, media_pointer: str, name: str) -> str | None:
        """The JSON pointer (``#/...``) of property ``name`` of the schema at
        ``media_pointer``/schema, following ``$ref`` and ``allOf``/``anyOf``/``oneOf``."""
        start = "#/" + media_pointer + "/schema"
        pending = [start]
        seen: set[str] = set()
        while pending:
            pointer = pending.pop(0)
            if pointer in seen:
                continue
            seen.add(pointer)
            node = self._resolve_pointer(pointer)
            if not isinstance(node, dict):
                continue
            if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/"):
                pending.append(node["$ref"])
            properties = node.get("properties")
            if isinstance(properties, dict) and name in properties:
                return pointer + "/properties/" + _pointer(name)[2:]
            for keyword in ("allOf", "anyOf", "oneOf"):
                branches = node.get(keyword)
                if isinstance(branches, list):
                    pending.extend(f"{pointer}/{keyword}/{i}" for i in range(len(branches)))
        return None

    def _resolve_pointer(self, pointer: str) -> Any:
        node: Any = self.document
        for raw in pointer[2:].split("/"):
            key = unquote(raw).replace("~1", "/").replace("~0", "~")
            if isinstance(node, list):
                node = node[int(key)] if key.isdigit() and int(key) < len(node) else None
            elif isinstance(node, dict):
                node = node.get(key)
            else:
                return None
        return node

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one spec per process; validators are costly
    def _operation_validator(self, template: str, method: str, media: str) -> Draft202012Validator:
        pointer = _pointer("paths", template, method, "requestBody", "content", media, "schema")
        return Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self._registry)

    def response_errors(self, template: str, method: str, status: int, body: Any) -> list[str]:
        """What the spec says is wrong with a JSON response (to check the emulator's replies)."""
        responses = self.document["paths"][template][method.lower()].get("responses", {})
        key = str(status) if str(status) in responses else f"{str(status)[0]}XX"
        content = responses.get(key, {}).get("content", {})
        if _JSON_MEDIA not in content:
            return (
                [] if body is None else [f"{method} {template}: spec defines no JSON for {status}"]
            )
        validator = self._response_validator(template, method.lower(), key)
        errors = sorted(validator.iter_errors(body), key=lambda error: list(error.absolute_path))
        return [f"{method} {template} -> {status}: {message}" for message in _messages(errors)][:10]

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one spec per process; validators are costly
    def _response_validator(self, template: str, method: str, status: str) -> Draft202012Validator:
        pointer = _pointer(
            "paths", template, method, "responses", status, "content", _JSON_MEDIA, "schema"
        )
        return Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self._registry)

    @functools.lru_cache(maxsize=512)  # noqa: B019 - one spec per process; validators are costly
    def _validator_for(self, schema_json: str) -> Draft202012Validator:
        schema = json.loads(schema_json)
        if "$ref" in schema and str(schema["$ref"]).startswith("#"):
            schema = {"$ref": _SPEC_URI + schema["$ref"]}
        return Draft202012Validator(schema, registry=self._registry)

    def schema_validator(self, name: str) -> Draft202012Validator:
        """A validator for ``components/schemas/<name>`` (used to check the emulator's replies)."""
        return self._validator_for(json.dumps({"$ref": _pointer("components", "schemas", name)}))


def _messages(errors: list[ValidationError]) -> Iterator[str]:
    """Readable errors: for a failed oneOf/anyOf, those of the most plausible branch.

    The plausible branch is the one of the right kind: fewest errors about a ``type``
    discriminator property or about the value's own JSON type, then fewest errors. When no
    branch is of the right kind, say so instead of guessing.
    """
    for error in errors:
        if not error.context:
            yield _describe(error)
            continue
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)

        def implausibility(
            branch: list[ValidationError], depth: int = len(error.absolute_path)
        ) -> tuple[int, int]:
            wrong_kind = sum(
                1
                for sub in branch
                if (sub.absolute_path and sub.absolute_path[-1] == "type")
                or (len(sub.absolute_path) == depth and sub.validator in ("type", "const", "enum"))
            )
            return wrong_kind, len(branch)

        best = min(branches.values(), key=implausibility)
        if (
            implausibility(best)[0]
            and isinstance(error.instance, dict)
            and "type" in error.instance
        ):
            yield f"{_location(error)}: an object of type {error.instance['type']!r} is not allowed here"
        else:
            yield from _messages(best)


def _location(error: ValidationError) -> str:
    return "/".join(str(part) for part in error.absolute_path) or "(body)"


def _describe(error: ValidationError) -> str:
    message = str(error.message)
    if len(message) > 160:  # keep the verdict at the end ("... is too long")
        message = message[:70] + " ... " + message[-70:]
    return f"{_location(error)}: {message}"


@functools.cache
def _load_spec_cached(path_text: str) -> OpenApiSpec | None:
    unavailable = validation_unavailable()
    if unavailable is not None:
        _log.warning(
            "Discord's OpenAPI spec cannot be used (%s): request validation is OFF", unavailable
        )
        return None
    path = Path(path_text)
    if not path.is_file():
        _log.warning(
            "Discord's OpenAPI spec was not found at %s (set %s): request validation is OFF",
            path,
            SPEC_ENV_VAR,
        )
        return None
    with path.open(encoding="utf-8") as handle:
        document = json.load(handle)
    return OpenApiSpec(document, source=path)


def load_spec(path: Path | None = None) -> OpenApiSpec | None:
    """The spec at ``path`` (default: :func:`default_spec_path`), parsed once per process.

    Returns None, after logging a warning, when the file is absent or jsonschema is not installed
    (see :func:`validation_unavailable`), so the emulator can still run for a newcomer's sandbox
    without them.
    """
    chosen = default_spec_path() if path is None else path
    return _load_spec_cached(str(chosen.resolve()))
