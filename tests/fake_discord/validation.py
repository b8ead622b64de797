"""Discord's documented limits on what a bot may send; violations become 400s like on Discord."""

from __future__ import annotations

import re
from typing import Any

from .command_size import size_problems
from .model import COMPONENTS_V2, JSON, SELECT_TYPES, iter_components

Problem = tuple[str, str]  # (field path, message)

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
#: Discord's locales (github: discord/discord-api-docs, developers/reference.mdx, "Locales"):
#: the only keys a name or description localization may have.
# fmt: off
DISCORD_LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
))
# fmt: on


def _too_long(problems: list[Problem], path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.append((path, f"Must be {limit} or fewer in length (got {len(value)})."))


def _too_many(problems: list[Problem], path: str, items: list[Any], limit: int) -> None:
    """A list longer than Discord takes there (its words give no count)."""
    if len(items) > limit:
        problems.append((path, f"Must be {limit} or fewer in length."))


def validate_message(
    body: JSON, *, creating: bool, files: int = 0, prefix: str = ""
) -> list[Problem]:
    """Check a message create/edit body (the `data` of an interaction callback included)."""
    problems: list[Problem] = []
    flags = int(body.get("flags") or 0)
    _too_long(problems, f"{prefix}content", body.get("content"), 2000)
    embeds = body.get("embeds") or []
    _too_many(problems, f"{prefix}embeds", embeds, 10)
    for i, embed in enumerate(embeds):
        problems += validate_embed(embed, f"{prefix}embeds.{i}")
    components = body.get("components") or []
    if flags & COMPONENTS_V2:
        if body.get("content") or embeds:
            problems.append(
                (f"{prefix}content", "content and embeds cannot be used with IS_COMPONENTS_V2.")
            )
        problems += _validate_v2(components, prefix)
    else:
        problems += _validate_rows(components, f"{prefix}components")
    problems += _validate_unique_custom_ids(components, f"{prefix}components")
    if len(body.get("attachments") or []) > 10 or files > 10:
        count = max(len(body.get("attachments") or []), files)
        problems.append((f"{prefix}attachments", f"Must be 10 or fewer in length (got {count})."))
    if creating and not (
        body.get("content")
        or embeds
        or components
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        problems.append((f"{prefix}content", "Cannot send an empty message"))
    return problems


def validate_embed(embed: JSON, path: str) -> list[Problem]:
    problems: list[Problem] = []
    total = 0
    for key, limit in (("title", 256), ("description", 4096)):
        _too_long(problems, f"{path}.{key}", embed.get(key), limit)
        total += len(embed.get(key) or "")
    footer = embed.get("footer") or {}
    _too_long(problems, f"{path}.footer.text", footer.get("text"), 2048)
    total += len(footer.get("text") or "")
    author = embed.get("author") or {}
    _too_long(problems, f"{path}.author.name", author.get("name"), 256)
    total += len(author.get("name") or "")
    fields = embed.get("fields") or []
    _too_many(problems, f"{path}.fields", fields, 25)
    for i, fld in enumerate(fields):
        _too_long(problems, f"{path}.fields.{i}.name", fld.get("name"), 256)
        _too_long(problems, f"{path}.fields.{i}.value", fld.get("value"), 1024)
        if not fld.get("name") or not fld.get("value"):
            problems.append((f"{path}.fields.{i}", "Field name and value are required."))
        total += len(fld.get("name") or "") + len(fld.get("value") or "")
    if total > 6000:
        problems.append((path, f"Embed size exceeds maximum size of 6000 (got {total})."))
    return problems


def _validate_rows(rows: list[JSON], path: str) -> list[Problem]:
    problems: list[Problem] = []
    if len(rows) > 5:
        problems.append((path, f"Must be 5 or fewer in length (got {len(rows)})."))
    for r, row in enumerate(rows):
        rpath = f"{path}.{r}"
        if row.get("type") != 1:
            problems.append((f"{rpath}.type", "Top-level components must be action rows."))
            continue
        problems += _validate_row_children(row.get("components") or [], f"{rpath}.components")
    return problems


def _validate_row_children(children: list[JSON], path: str) -> list[Problem]:
    problems: list[Problem] = []
    if not children:
        problems.append((path, "Action rows must contain at least one component."))
    selects = [c for c in children if c.get("type") in SELECT_TYPES]
    if selects and len(children) > 1:
        problems.append((path, "A select menu must be alone in its action row."))
    if len(children) > 5:
        problems.append((path, f"Must be 5 or fewer in length (got {len(children)})."))
    for i, comp in enumerate(children):
        problems += _validate_interactive(comp, f"{path}.{i}")
    return problems


def _validate_interactive(comp: JSON, path: str) -> list[Problem]:
    problems: list[Problem] = []
    ctype = comp.get("type")
    _too_long(problems, f"{path}.custom_id", comp.get("custom_id"), 100)
    if comp.get("custom_id") == "":
        problems.append((f"{path}.custom_id", "Must be between 1 and 100 in length."))
    if ctype == 2:
        _too_long(problems, f"{path}.label", comp.get("label"), 80)
        style = comp.get("style")
        if style == 5:
            if not comp.get("url") or comp.get("custom_id"):
                problems.append((path, "Link buttons need a url and no custom_id."))
        elif style != 6 and not comp.get("custom_id"):
            problems.append((f"{path}.custom_id", "This field is required"))
        if not comp.get("label") and not comp.get("emoji") and style != 6:
            problems.append((path, "Buttons need a label or an emoji."))
    elif ctype in SELECT_TYPES:
        if not comp.get("custom_id"):
            problems.append((f"{path}.custom_id", "This field is required"))
        _too_long(problems, f"{path}.placeholder", comp.get("placeholder"), 150)
        options = comp.get("options") or []
        if ctype == 3:
            if not 1 <= len(options) <= 25:
                problems.append(
                    (f"{path}.options", f"Must be between 1 and 25 in length (got {len(options)}).")
                )
            for i, opt in enumerate(options):
                for key in ("label", "value", "description"):
                    _too_long(problems, f"{path}.options.{i}.{key}", opt.get(key), 100)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not 0 <= low <= high <= 25 or (ctype == 3 and high > len(options)):
            problems.append((path, f"Invalid min_values/max_values ({low}, {high})."))
    elif ctype == 4:
        _too_long(problems, f"{path}.label", comp.get("label"), 45)
        _too_long(problems, f"{path}.value", comp.get("value"), 4000)
    return problems


def _validate_v2(components: list[JSON], prefix: str) -> list[Problem]:
    problems: list[Problem] = []
    everything = iter_components(components)
    if len(everything) > 40:
        problems.append(
            (
                f"{prefix}components",
                f"Must be 40 or fewer components in total (got {len(everything)}).",
            )
        )
    text = sum(len(c.get("content") or "") for c in everything if c.get("type") == 10)
    if text > 4000:
        problems.append((f"{prefix}components", f"Text displays total {text} > 4000 characters."))
    for i, comp in enumerate(everything):
        if comp.get("type") == 1:
            problems += _validate_row_children(
                comp.get("components") or [], f"{prefix}components[{i}]"
            )
    return problems


def _validate_unique_custom_ids(components: list[JSON], path: str) -> list[Problem]:
    seen: set[str] = set()
    problems: list[Problem] = []
    for comp in iter_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            problems.append((path, f"Component custom id cannot be duplicated ({cid!r})."))
        seen.add(cid)
    return problems


def validate_modal(body: JSON) -> list[Problem]:
    problems: list[Problem] = []
    _too_long(problems, "data.title", body.get("title"), 45)
    _too_long(problems, "data.custom_id", body.get("custom_id"), 100)
    components = body.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append(("data.components", "Must be between 1 and 5 in length."))
    return problems


def validate_commands(commands: list[JSON]) -> list[Problem]:
    problems: list[Problem] = []
    _too_many(problems, "", commands, 100)
    names: set[tuple[str, int]] = set()
    for i, cmd in enumerate(commands):
        key = (str(cmd.get("name")), int(cmd.get("type", 1)))
        if key in names:
            problems.append((f"{i}.name", f"Application command names must be unique ({key[0]})."))
        names.add(key)
        problems += _validate_command(cmd, str(i), depth=0)
        problems += size_problems(cmd, str(i))
    return problems


def _validate_command(cmd: JSON, path: str, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    chat_input = int(cmd.get("type", 1)) == 1 or depth > 0
    if chat_input:
        problems += _names_and_descriptions(cmd, path, "command")
    options = cmd.get("options") or []
    _too_many(problems, f"{path}.options", options, 25)
    for i, opt in enumerate(options):
        opath = f"{path}.options.{i}"
        if opt.get("type") in (1, 2):
            problems += _validate_command(opt, opath, depth + 1)
            continue
        problems += _names_and_descriptions(opt, opath, "option")
        choices = opt.get("choices") or []
        _too_many(problems, f"{opath}.choices", choices, 25)
        for c, choice in enumerate(choices):
            cpath = f"{opath}.choices.{c}"
            _one_to_100(problems, _localized(choice, "name", problems, cpath))
            _too_long(problems, f"{cpath}.value", choice.get("value"), 100)
    return problems


def _names_and_descriptions(node: JSON, path: str, what: str) -> list[Problem]:
    """A command's or an option's name (1-32, lower case) and description (1-100), in the
    default text and in every localization."""
    problems: list[Problem] = []
    for key, name in _localized(node, "name", problems, path):
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append((key, f"Invalid {what} name {name!r}."))
    _one_to_100(problems, _localized(node, "description", problems, path))
    return problems


def _one_to_100(problems: list[Problem], texts: list[tuple[str, str]]) -> None:
    for key, text in texts:
        if not 1 <= len(text) <= 100:
            problems.append((key, "Must be between 1 and 100 in length."))


def _localized(node: JSON, field: str, problems: list[Problem], path: str) -> list[tuple[str, str]]:
    """(field path, text) of ``field`` and of each of its ``<field>_localizations``; a key
    that is not one of Discord's locales is a problem."""
    texts = [(f"{path}.{field}", str(node.get(field) or ""))]
    for locale, text in (node.get(f"{field}_localizations") or {}).items():
        key = f"{path}.{field}_localizations.{locale}"
        if locale not in DISCORD_LOCALES:
            problems.append((key, f"Invalid locale {locale!r}."))
        elif text is not None:
            texts.append((key, str(text)))
    return texts
