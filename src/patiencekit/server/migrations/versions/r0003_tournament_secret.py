"""A tournament's own secret: its deals come from it, not from the server's key.

``tournaments.secret`` (64 hexadecimal digits, 256 bits) is made when the tournament
starts; null before (and for tournaments started before this revision, whose deals
are stored already).

Revision ID: r0003
Revises: r0002
Create Date: 2025-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0003"
down_revision: str | None = "r0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("secret")
