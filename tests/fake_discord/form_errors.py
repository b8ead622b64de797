"""Discord's 400 ``50035 Invalid Form Body``: the problems of a refused request, recorded as
the fake's violations and answered in Discord's shape (``errors`` nested by field path, each
field's ``_errors`` a list of ``{code, message}``), and the contract gate that checks every
request against the pinned OpenAPI description (``contract/``) before a handler sees it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from aiohttp import web

from .contract.openapi_check import Contract
from .http_util import API_PREFIX, CONTRACT_GATE, ApiError, Gate
from .model import Violation

INVALID_FORM_BODY = 50035
#: A problem: (field path, message) or (field path, message, Discord's error code).
FormProblem = tuple[str, str] | tuple[str, str, str]
__all__ = ["CONTRACT_GATE", "contract_gate", "errors_object", "query_refusal", "refuse"]


def _code(problem: FormProblem) -> str:
    if len(problem) == 3:
        return problem[2]
    message = problem[1]
    if message.startswith("Must be between"):
        return "BASE_TYPE_BAD_LENGTH"
    if message.startswith("Must be") and "or fewer" in message:
        return "BASE_TYPE_MAX_LENGTH"
    if message.startswith("This field is required"):
        return "BASE_TYPE_REQUIRED"
    return "BASE_TYPE_INVALID"


def errors_object(problems: Sequence[FormProblem]) -> dict[str, Any]:
    """``{"data": {"components": {"0": {"label": {"_errors": [...]}}}}}``, as Discord nests it
    (a whole-body problem, path "" or "_", goes in the top ``_errors``)."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in [p for p in problem[0].split(".") if p and p != "_"]:
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": _code(problem), "message": problem[1]})
    return errors


def refuse(
    violations: list[Violation], method: str, api_path: str, problems: Sequence[FormProblem]
) -> ApiError:
    """Record ``problems`` as violations; the 400 Discord answers for them."""
    for problem in problems:
        violations.append(Violation(method, api_path, problem[0], problem[1]))
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors_object(problems))


def contract_gate(contract: Contract, violations: list[Violation]) -> Gate:
    """The check ``read_body`` makes of every body: refused (raises) if the description says
    Discord would refuse it."""

    def gate(request: web.Request, content_type: str, body: Any) -> None:
        api_path = request.path.removeprefix(API_PREFIX)
        problems = contract.body_problems(request.method, api_path, content_type, body)
        if problems:
            raise refuse(violations, request.method, api_path, problems)

    return gate


def query_refusal(
    contract: Contract,
    violations: list[Violation],
    request: web.Request,
    api_path: str,
    query: Mapping[str, str],
) -> ApiError | None:
    problems = contract.query_problems(request.method, api_path, query)
    return refuse(violations, request.method, api_path, problems) if problems else None
