"""Rate limits, counted in the database so that they hold across the app's processes.

A :class:`Limit` allows ``count`` events per ``window`` seconds in each of its buckets (a
bucket is a key: an account's name, an address, a player): up to ``count`` at once, then
one more every ``window / count`` seconds. This is the generic cell rate algorithm
(GCRA): a bucket is one row of ``rate_limits`` holding its *theoretical arrival time*
``tat``; each event moves it on by ``window / count`` from ``max(tat, now)``, and is
allowed only if that leaves ``tat`` at most ``window`` ahead of now. A bucket whose
``tat`` has passed has all its room: its row may go (:func:`take` sweeps such rows now
and then).

Taking from a bucket is one statement, an upsert that moves ``tat`` on only if there is
room and returns it only then. Two requests at once can never both take the last place:
on SQLite a write transaction holds the database's write lock, on PostgreSQL the upsert
locks the bucket's row until the transaction ends. So a check and its count are one
step, and a limit of 5 lets exactly 5 through however many requests arrive together.
"""

from __future__ import annotations

import ipaddress
import itertools
import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from patiencekit.server.db import rate_limits
from patiencekit.server.errors import ApiError

__all__ = ["Limit", "address_key", "give_back", "refused", "take"]

#: every this many takes in a process, the buckets that have all their room again are deleted
SWEEP_EVERY = 256
#: floating-point slack when a bucket is filled to exactly its window
_EPSILON = 1e-6

_takes = itertools.count(1)


@dataclass(frozen=True, slots=True)
class Limit:
    """``count`` events per ``window`` seconds in each bucket of the kind ``kind``.

    >>> Limit("hint", 20, 60).interval
    3.0
    """

    kind: str
    count: int
    window: float

    @property
    def interval(self) -> float:
        """Seconds between two events once the burst of ``count`` is spent."""
        return self.window / self.count

    def bucket(self, key: str) -> str:
        """The row's key of bucket ``key``."""
        return f"{self.kind}:{key}"[:128]


def take(conn: Connection, limit: Limit, key: str, now: float) -> float | None:
    """Count one event in bucket ``key`` of ``limit`` if it has room: None when counted,
    else the seconds until it has room again (nothing counted).

    ``conn`` is in a write transaction (``Database.write``): the event counts once it
    commits, and not at all if the transaction rolls back.
    """
    if next(_takes) % SWEEP_EVERY == 0:
        conn.execute(delete(rate_limits).where(rate_limits.c.tat < now))
    bucket = limit.bucket(key)
    dialect: Any = sqlite if conn.dialect.name == "sqlite" else postgresql
    start = case((rate_limits.c.tat > now, rate_limits.c.tat), else_=now)
    statement = (
        dialect.insert(rate_limits)
        .values(key=bucket, tat=now + limit.interval)
        .on_conflict_do_update(
            index_elements=[rate_limits.c.key],
            set_={"tat": start + limit.interval},
            where=start + limit.interval <= now + limit.window + _EPSILON,
        )
        .returning(rate_limits.c.tat)
    )
    if conn.execute(statement).first() is not None:
        return None
    tat = conn.execute(select(rate_limits.c.tat).where(rate_limits.c.key == bucket)).scalar_one()
    return max(float(tat) + limit.interval - limit.window - now, 0.0)


def give_back(conn: Connection, limit: Limit, key: str) -> None:
    """Uncount one event of bucket ``key`` (it turned out not to be one: a sign-in that
    succeeded)."""
    conn.execute(
        update(rate_limits)
        .where(rate_limits.c.key == limit.bucket(key))
        .values(tat=rate_limits.c.tat - limit.interval)
    )


def refused(message: str, wait: float) -> ApiError:
    """The 429 ``rate_limited`` answer, with ``Retry-After`` (whole seconds, at least 1);
    ``message`` is a msgid of the server's catalogue.

    >>> e = refused("too many hints: wait a moment", 2.2)
    >>> e.status, e.code, e.headers
    (429, 'rate_limited', {'Retry-After': '3'})
    """
    seconds = max(1, math.ceil(wait))
    return ApiError(429, "rate_limited", message, headers={"Retry-After": str(seconds)})


def address_key(ip: str) -> str:
    """The bucket of a client address: the address itself, or for IPv6 its /64 network
    (one subscriber's whole block: one line, one bucket).

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:3:4:5:6")
    ('203.0.113.7', '2001:db8:1:2::/64')
    >>> address_key("::ffff:203.0.113.7"), address_key("testclient")
    ('203.0.113.7', 'testclient')
    """
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)
