"""Rate limits: one row per bucket that is not full (``server.limits``, GCRA).

``rate_limits.key`` names the bucket (``signin-account:alice``, ``guest-address:203.0.113.7``,
``hint-player:42``...), ``tat`` its theoretical arrival time; a row whose ``tat`` has passed
is a full bucket and may be deleted.

Revision ID: r0004
Revises: r0003
Create Date: 2025-03-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0004"
down_revision: str | None = "r0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("tat", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_rate_limits"),
    )
    op.create_index("ix_rate_limits_tat", "rate_limits", ["tat"])


def downgrade() -> None:
    op.drop_index("ix_rate_limits_tat", table_name="rate_limits")
    op.drop_table("rate_limits")
