"""The server's session tokens: genuine ones verify once; forged, tampered, expired and
replayed ones never do."""

from __future__ import annotations

import base64
import json

import pytest

from bot.activity.session_tokens import BadToken, SessionSigner


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def issue(signer: SessionSigner, user: int = 7) -> str:
    return signer.issue(
        user_id=user, instance_id="i-1-gc-2-3", channel_id=3, guild_id=2, locale="de"
    )


def test_a_token_opens_one_socket() -> None:
    signer = SessionSigner(clock=Clock())
    token = issue(signer)
    session = signer.consume(token)
    assert (session.user_id, session.instance_id, session.channel_id, session.guild_id) == (
        7,
        "i-1-gc-2-3",
        3,
        2,
    )
    assert session.locale == "de"
    with pytest.raises(BadToken, match="replayed"):
        signer.consume(token)
    assert issue(signer) != issue(signer)  # a fresh nonce each time


def test_expired_tokens_are_refused() -> None:
    clock = Clock()
    signer = SessionSigner(clock=clock, lifetime=60)
    token = issue(signer)
    clock.now += 60
    with pytest.raises(BadToken, match="expired"):
        signer.consume(token)


def test_tampered_and_foreign_tokens_are_refused() -> None:
    clock = Clock()
    signer = SessionSigner(clock=clock)
    token = issue(signer)
    body, mac = token.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    for field, value in (("u", "8"), ("c", "4"), ("i", "i-9-gc-2-4"), ("e", clock.now + 10**6)):
        forged = dict(claims, **{field: value})
        forged_body = base64.urlsafe_b64encode(json.dumps(forged).encode()).rstrip(b"=").decode()
        with pytest.raises(BadToken, match="signature"):
            signer.consume(f"{forged_body}.{mac}")
    other_process = SessionSigner(clock=clock)  # another secret: a token it made is foreign
    with pytest.raises(BadToken, match="signature"):
        signer.consume(issue(other_process))
    for junk in ("", "abc", "a.b.c", None, 5, token + "x", "x" * 2000):
        with pytest.raises(BadToken):
            signer.consume(junk)
    assert signer.consume(token).user_id == 7  # the genuine one is still good
