"""Discord's proxy in front of the Activity, for the tests: every request it forwards comes from
its one address and carries headers signing whom it is for (facts sheet §3), made here with a
key pair of the test's own (the server is given the public half, as ``DISCORD_PUBLIC_KEY``)."""

from __future__ import annotations

import base64
import json
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


class FakeProxy:
    def __init__(self, application_id: int) -> None:
        self.application_id = application_id
        self.key = Ed25519PrivateKey.generate()

    @property
    def public_key_hex(self) -> str:
        return self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()

    def headers(
        self,
        user_id: int,
        *,
        now: float | None = None,
        lifetime: int = 300,
        application_id: int | None = None,
        hex_signature: bool = False,
        key: Ed25519PrivateKey | None = None,
    ) -> dict[str, str]:
        """The three headers for ``user_id``, as the proxy adds them (``key``: a forger's)."""
        created = int(time.time() if now is None else now)
        payload = {
            "user_id": str(user_id),
            "application_id": str(application_id or self.application_id),
            "created_at": created,
            "expires_at": created + lifetime,
        }
        raw = json.dumps(payload).encode()
        signature = (key or self.key).sign(raw)
        return {
            "X-Signature-Ed25519": signature.hex()
            if hex_signature
            else base64.b64encode(signature).decode(),
            "X-Signature-Timestamp": str(created),
            "X-Discord-Proxy-Payload": base64.b64encode(raw).decode(),
        }
