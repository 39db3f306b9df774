"""Passwords (argon2), session tokens, CSRF tokens and device tokens.

>>> token = new_csrf_token("0123456789abcdef0123")
>>> csrf_token_valid(token, "0123456789abcdef0123"), csrf_token_valid(token, "another-secret-key")
(True, False)
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = [
    "csrf_token_valid",
    "device_id",
    "hash_password",
    "hash_token",
    "needs_rehash",
    "new_csrf_token",
    "new_device_token",
    "new_token",
    "verify_password",
]

#: argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): about 0.1 s a
#: hash on a small server, enough against guessing, cheap enough against a flood of sign-ins
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


@functools.cache
def _dummy_hash() -> str:
    """Checked against when the name is unknown, so that both answers take as long."""
    return _hasher.hash("not a password anyone has")


def hash_password(password: str) -> str:
    """An argon2id hash of ``password`` (with its own salt and parameters)."""
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """True if ``password`` matches; takes as long when there is no hash."""
    try:
        return _hasher.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's."""
    return _hasher.check_needs_rehash(password_hash)


def new_token() -> str:
    """A random token for a cookie (256 bits)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps of a session token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def _csrf_mac(nonce: str, secret: str) -> str:
    return hmac.new(secret.encode(), b"csrf:" + nonce.encode(), hashlib.sha256).hexdigest()[:32]


def new_csrf_token(secret: str) -> str:
    """A CSRF token: a random nonce and its HMAC under the server's secret."""
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_csrf_mac(nonce, secret)}"


def csrf_token_valid(token: str | None, secret: str) -> bool:
    """True if ``token`` was made by :func:`new_csrf_token` with this secret."""
    if not token or token.count(".") != 1:
        return False
    nonce, mac = token.split(".")
    return hmac.compare_digest(mac, _csrf_mac(nonce, secret))


def _device_mac(name_key: str, nonce: str, secret: str) -> str:
    message = b"device:" + name_key.encode() + b":" + nonce.encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:32]


def new_device_token(name_key: str, secret: str) -> str:
    """A device token (OWASP's "device cookie"): proof that this browser signed in to the
    account ``name_key`` once, a random nonce and its HMAC under the server's secret and
    the account's name. The sign-in limit counts such a browser on its own.

    >>> secret = "0123456789abcdef0123"
    >>> token = new_device_token("alice", secret)
    >>> device_id(token, "alice", secret) == token.split(".")[0]
    True
    >>> device_id(token, "bob", secret), device_id("x.y", "alice", secret)
    (None, None)
    """
    nonce = secrets.token_urlsafe(18)
    return f"{nonce}.{_device_mac(name_key, nonce, secret)}"


def device_id(token: str | None, name_key: str, secret: str) -> str | None:
    """The nonce of ``token`` if it is a device token of the account ``name_key`` made with
    this secret, else None (no token, a forged one, or one of another account)."""
    if not token or token.count(".") != 1:
        return None
    nonce, mac = token.split(".")
    if not nonce or not hmac.compare_digest(mac, _device_mac(name_key, nonce, secret)):
        return None
    return nonce
