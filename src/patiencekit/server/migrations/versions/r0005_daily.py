"""The daily deal: one deal per game and UTC day (``daily_deals``), its day's table
(``daily_results``), and a play's day (``plays.daily``), one per player, game and day
(the unique index ``ix_plays_daily``).

Revision ID: r0005
Revises: r0004
Create Date: 2025-03-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0005"
down_revision: str | None = "r0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("plays") as batch:
        batch.add_column(sa.Column("daily", sa.String(10), nullable=True))
    op.create_index("ix_plays_daily", "plays", ["daily", "game_id", "user_id"], unique=True)
    op.create_table(
        "daily_deals",
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("number", sa.String(24), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "day", name="pk_daily_deals"),
    )
    op.create_table(
        "daily_results",
        sa.Column("play_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("elapsed", sa.Float(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["play_id"], ["plays.id"], name="fk_daily_results_play_id_plays", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_daily_results_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("play_id", name="pk_daily_results"),
    )
    op.create_index("ix_daily_results_day", "daily_results", ["game_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_results_day", table_name="daily_results")
    op.drop_table("daily_results")
    op.drop_table("daily_deals")
    op.drop_index("ix_plays_daily", table_name="plays")
    with op.batch_alter_table("plays") as batch:
        batch.drop_column("daily")
