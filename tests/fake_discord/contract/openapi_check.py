"""Request bodies and query strings checked against the pinned part of Discord's OpenAPI
description (``openapi_subset.json``, relaxed by ``relaxations.py``). OpenAPI 3.1 schemas are
JSON Schema 2020-12: ``jsonschema`` validates them, ``$ref`` resolved within the subset.

A failure becomes the problems Discord's 400 ``50035 Invalid Form Body`` lists: a field path
(``data.components.0.components.0.label``) and Discord's error code and message for it.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError, validators

from . import PINNED
from .relaxations import relaxed

#: (field path, message, Discord's error code)
Problem = tuple[str, str, str]

_TEMPLATE_PARAM = re.compile(r"\{[^/}]+\}")
#: Checked bodies whose answers are kept (a command tree is tens of kB).
CHECKED_BODIES = 256


@dataclass
class Operation:
    method: str
    path: str
    operation_id: str
    #: Content type → schema of the body.
    bodies: dict[str, Any]
    #: Query parameter → schema.
    query: dict[str, Any]
    validators: dict[str, Any] = field(default_factory=dict, repr=False)


class Contract:
    """The operations of the subset, found by method and path (below ``/api/v10``)."""

    def __init__(self, subset: Mapping[str, Any]) -> None:
        self.subset = relaxed(dict(subset))
        _dispatch_unions(self.subset, self.subset["components"]["schemas"])
        self.pinned = dict(self.subset["x-pinned"])
        self._components = self.subset["components"]
        self._routes: list[tuple[int, re.Pattern[str], str]] = []
        self._operations: dict[tuple[str, str], Operation] = {}
        #: Answers for bodies already checked (the same command tree is synced by every bot
        #: test: validating it again each time was a tenth of the quick subset).
        self._checked: OrderedDict[tuple[str, str, str, str], list[Problem]] = OrderedDict()
        for path, item in self.subset["paths"].items():
            literal = len([s for s in path.split("/") if not _TEMPLATE_PARAM.fullmatch(s)])
            segments = (
                "[^/]+" if _TEMPLATE_PARAM.fullmatch(s) else re.escape(s) for s in path.split("/")
            )
            pattern = re.compile("^" + "/".join(segments) + "$")
            self._routes.append((literal, pattern, path))
            shared = [p for p in item.get("parameters", []) if p.get("in") == "query"]
            for method, op in item.items():
                if method == "parameters":
                    continue
                params = shared + [p for p in op.get("parameters", []) if p.get("in") == "query"]
                content = (op.get("requestBody") or {}).get("content") or {}
                self._operations[(method.upper(), path)] = Operation(
                    method.upper(),
                    path,
                    op.get("operationId", ""),
                    {ctype: spec["schema"] for ctype, spec in content.items()},
                    {p["name"]: p.get("schema", {}) for p in params},
                )
        # The most literal template first: /messages/@original before /messages/{message_id}.
        self._routes.sort(key=lambda r: -r[0])

    def operation(self, method: str, path: str) -> Operation | None:
        for _, pattern, template in self._routes:
            if pattern.match(path):
                return self._operations.get((method.upper(), template))
        return None

    def templates(self) -> set[tuple[str, str]]:
        """Every (METHOD, path template) the subset describes."""
        return set(self._operations)

    def _validator(self, op: Operation, key: str, schema: Any) -> Any:
        found = op.validators.get(key)
        if found is None:
            # A root that holds the components, so "#/components/..." resolves within it.
            root = {"components": self._components, "x-target": [schema], "$ref": "#/x-target/0"}
            found = op.validators[key] = ContractValidator(root)
        return found

    def body_problems(self, method: str, path: str, content_type: str, body: Any) -> list[Problem]:
        """What is wrong with ``body`` (parsed: JSON, a multipart's ``payload_json``, a form's
        fields) sent as ``content_type`` to ``METHOD path``."""
        op = self.operation(method, path)
        if op is None:
            return []
        ctype = content_type.split(";")[0].strip().lower()
        schema = op.bodies.get(ctype)
        if schema is None:
            if not op.bodies:
                return []
            return [("_", f"Content type {ctype!r} is not accepted here.", "CONTENT_TYPE_INVALID")]
        try:
            key = (op.method, op.path, ctype, json.dumps(body, sort_keys=True))
        except (TypeError, ValueError):  # not JSON (a form's fields are): checked each time
            return self._check_body(op, ctype, schema, body)
        found = self._checked.get(key)
        if found is None:
            found = self._checked[key] = self._check_body(op, ctype, schema, body)
            if len(self._checked) > CHECKED_BODIES:
                self._checked.popitem(last=False)
        return list(found)

    def _check_body(self, op: Operation, ctype: str, schema: Any, body: Any) -> list[Problem]:
        validator = self._validator(op, "body " + ctype, schema)
        return _problems(validator.iter_errors(body), prefix="")

    def query_problems(self, method: str, path: str, query: Mapping[str, str]) -> list[Problem]:
        op = self.operation(method, path)
        if op is None:
            return []
        problems: list[Problem] = []
        for name, raw in query.items():
            schema = op.query.get(name)
            if schema is None:
                continue  # Discord ignores query arguments it does not know
            value = _coerce(raw, self._types(schema))
            validator = self._validator(op, "query " + name, schema)
            problems += _problems(validator.iter_errors(value), prefix=name)
        return problems

    def _types(self, schema: Any) -> set[str]:
        """The JSON types a query parameter's schema names (one ``$ref`` followed)."""
        ref = schema.get("$ref")
        if isinstance(ref, str):
            schema = self._components["schemas"][ref.rsplit("/", 1)[1]]
        kinds = schema.get("type", [])
        return {kinds} if isinstance(kinds, str) else set(kinds)


def _tags(branch: Any, schemas: Mapping[str, Any]) -> list[Any] | None:
    """The values of ``type`` a union's variant takes (``enum``/``const``), if it names them."""
    if isinstance(branch, dict) and isinstance(branch.get("$ref"), str):
        branch = schemas.get(branch["$ref"].rsplit("/", 1)[1])
    tag = branch.get("properties", {}).get("type") if isinstance(branch, dict) else None
    if not isinstance(tag, dict):
        return None
    if isinstance(tag.get("enum"), list):
        return list(tag["enum"])
    return [tag["const"]] if "const" in tag else None


def _dispatch_unions(node: Any, schemas: Mapping[str, Any]) -> None:
    """Rewrite, in place, the unions of the description into forms that accept and refuse the
    same values but validate only what applies, and report errors at their own field paths:

    - an ``anyOf``/``oneOf`` whose variants are told apart by their ``type`` (components,
      interaction callbacks) becomes ``x-dispatch``: the variant of the value's ``type`` alone
      (validating all seven variants of a callback took a tenth of a second);
    - a ``oneOf`` of constants becomes an ``enum`` of them;
    - ``oneOf: [{"type": "null"}, X]`` becomes an ``anyOf`` (a null never passes X).
    """
    if isinstance(node, list):
        for item in node:
            _dispatch_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_unions(value, schemas)
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        if all(
            isinstance(b, dict) and set(b) <= {"const", "title", "description"} for b in branches
        ):
            consts = [b["const"] for b in branches]
            if len(set(map(json.dumps, consts))) == len(consts):
                del node[key]
                node["enum"] = consts
            continue
        if key == "oneOf" and len(branches) == 2 and branches[0] == {"type": "null"}:
            target = branches[1]
            if isinstance(target.get("$ref"), str):
                target = schemas.get(target["$ref"].rsplit("/", 1)[1], {})
            if target.get("type") in ("object", "string", "integer", "array"):
                node["anyOf"] = node.pop("oneOf")
            continue
        tags = [_tags(b, schemas) for b in branches]
        flat = [t for ts in tags if ts is not None for t in ts]
        if any(ts is None for ts in tags) or len(flat) != len(set(map(json.dumps, flat))):
            continue  # not every variant names its type, or two share one
        del node[key]
        node["x-dispatch"] = {
            json.dumps(tag): branch
            for ts, branch in zip(tags, branches, strict=True)
            for tag in ts or ()
        }


def _dispatch(
    validator: Any, variants: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """The ``x-dispatch`` keyword: validate ``instance`` as the variant its ``type`` names."""
    if not isinstance(instance, dict):
        yield ValidationError("Must be an object.", validator="type", validator_value="object")
        return
    if "type" not in instance:
        yield ValidationError("type is required", validator="required", validator_value=["type"])
        return
    branch = variants.get(json.dumps(instance["type"]))
    if branch is None:
        tags = [json.loads(t) for t in variants]
        yield ValidationError("unknown type", validator="enum", validator_value=tags, path=["type"])
        return
    yield from validator.descend(instance, branch)


# jsonschema's stubs leave ``extend`` untyped; the class it makes is a Draft 2020-12 validator.
ContractValidator: Any = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, {"x-dispatch": _dispatch}
)


def _coerce(raw: str, types: set[str]) -> Any:
    """A query string's text as the type its schema asks for, when it reads as one (Discord
    parses them so); otherwise the text, which then fails the schema's type."""
    if "integer" in types and re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if "number" in types:
        try:
            return float(raw)
        except ValueError:
            pass
    if "boolean" in types and raw.lower() in ("true", "false", "1", "0"):
        return raw.lower() in ("true", "1")
    return raw


def _problems(errors: Iterable[ValidationError], prefix: str) -> list[Problem]:
    found: list[Problem] = []
    for error in errors:
        for leaf in _leaves(error):
            parts = [prefix] if prefix else []
            parts += [str(p) for p in leaf.absolute_path]
            if leaf.validator == "required":  # Discord names the missing field itself
                given: Any = leaf.instance if isinstance(leaf.instance, dict) else {}
                wanted: Any = leaf.validator_value
                parts += [str(k) for k in wanted if k not in given][:1]
            code, message = discord_error(leaf)
            found.append((".".join(parts), message, code))
    # One answer per field: a value of the wrong type is only that.
    wrong_type = {path for path, _, code in found if code == "BASE_TYPE_CONVERT"}
    unique: list[Problem] = []
    for problem in found:
        if problem not in unique and (
            problem[0] not in wrong_type or problem[2] == "BASE_TYPE_CONVERT"
        ):
            unique.append(problem)
    return unique


def _leaves(error: ValidationError) -> list[ValidationError]:
    """A union's failure as Discord reports it: the errors of the variant the value was meant
    to be (the one whose type and ``type`` tag it matches), not "matches none"."""
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if error.validator == "oneOf" and len(branches) < _branch_count(error):
        return [error]  # more than one variant matched

    def mismatch(errors: list[ValidationError]) -> tuple[int, int, int]:
        shallow = [
            e
            for e in errors
            if len(e.relative_path) == 0 and e.validator in ("type", "const", "enum")
        ]
        tags = [e for e in errors if len(e.relative_path) == 1 and e.validator in ("const", "enum")]
        return len(shallow), len(tags), len(errors)

    best = min(branches.values(), key=mismatch)
    if mismatch(best)[0]:
        return [error]  # the value is none of the variants (a bad type, or not one of them)
    return [leaf for sub in best for leaf in _leaves(sub)]


def _branch_count(error: ValidationError) -> int:
    schema = error.schema
    return len(schema.get(str(error.validator), [])) if isinstance(schema, dict) else 0


def discord_error(error: ValidationError) -> tuple[str, str]:
    """Discord's code and message for a schema failure (the wording of its 50035 answers)."""
    kind, value = error.validator, error.instance
    limit: Any = error.validator_value
    if kind in ("maxLength", "maxItems"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
    if kind in ("minLength", "minItems"):
        return "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length."
    if kind == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if kind in ("maximum", "exclusiveMaximum"):
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {limit}."
    if kind in ("minimum", "exclusiveMinimum"):
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {limit}."
    if kind in ("enum", "const"):
        choices = limit if isinstance(limit, list) else [limit]
        return "BASE_TYPE_CHOICES", f"Value must be one of {json.dumps(choices)}."
    if kind == "pattern":
        return "STRING_TYPE_REGEX", f"String value did not match validation regex ({value!r})."
    if kind == "type":
        wanted = limit if isinstance(limit, str) else "/".join(limit)
        return "BASE_TYPE_CONVERT", f"Value {json.dumps(value)[:60]} is not {wanted}."
    if kind in ("anyOf", "oneOf"):
        variants = limit if isinstance(limit, list) else []
        consts = [v["const"] for v in variants if isinstance(v, dict) and "const" in v]
        if consts and len(consts) == len(variants):
            return "BASE_TYPE_CHOICES", f"Value must be one of {json.dumps(consts)}."
        return "UNION_TYPE_CHOICES", "Value matches none of the accepted forms."
    return "BASE_TYPE_INVALID", error.message[:200]


@cache
def pinned_contract() -> Contract:
    """The contract the fake enforces: the pinned subset, relaxed."""
    return Contract(json.loads(PINNED.read_text(encoding="utf-8")))
