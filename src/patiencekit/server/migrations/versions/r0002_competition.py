"""Competition: tournaments and entrants, ranked results, standings, medals, closed days.

Also a play's end (``plays.ended_at``) and a unique index on a tournament's plays
(one play per entrant and round).

Revision ID: r0002
Revises: r0001
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0002"
down_revision: str | None = "r0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("plays") as batch:
        batch.add_column(sa.Column("ended_at", sa.Float(), nullable=True))
    op.create_index(
        "ix_plays_tournament", "plays", ["tournament_id", "user_id", "round_id"], unique=True
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("deadline_seconds", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("deals", sa.String(80), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.id"],
            name="fk_tournaments_created_by_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "game_id", "created_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("time", sa.Float(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name="fk_tournament_entries_tournament_id_tournaments",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name="fk_tournament_entries_user_id_users",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="pk_tournament_entries"),
        sa.UniqueConstraint(
            "tournament_id", "seat", name="uq_tournament_entries_tournament_id_seat"
        ),
    )
    op.create_index("ix_tournament_entries_user", "tournament_entries", ["user_id", "joined_at"])
    op.create_table(
        "results",
        sa.Column("play_id", sa.String(32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("elapsed", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.ForeignKeyConstraint(
            ["play_id"], ["plays.id"], name="fk_results_play_id_plays", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_results_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("play_id", name="pk_results"),
    )
    op.create_index("ix_results_day", "results", ["game_id", "day"])
    op.create_index("ix_results_tournament", "results", ["tournament_id", "user_id"])
    op.create_table(
        "standings",
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("reached_at", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        *(sa.Column(f"cups{i}", sa.Integer(), nullable=False) for i in range(1, 5)),
        *(sa.Column(f"medals{i}", sa.Integer(), nullable=False) for i in range(1, 6)),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_standings_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name="pk_standings"),
    )
    op.create_index(
        "ix_standings_points",
        "standings",
        ["game_id", sa.text("points DESC"), "reached_at", "user_id"],
    )
    op.create_table(
        "medals",
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("play_id", sa.String(32), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("elapsed", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name="fk_medals_user_id_users", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "day", "place", name="pk_medals"),
        sa.UniqueConstraint("game_id", "day", "user_id", name="uq_medals_game_id_day_user_id"),
    )
    op.create_table(
        "closed_days",
        sa.Column("game_id", sa.String(40), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("closed_at", sa.Float(), nullable=False),
        sa.Column("medals", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "day", name="pk_closed_days"),
    )


def downgrade() -> None:
    op.drop_table("closed_days")
    op.drop_table("medals")
    op.drop_index("ix_standings_points", table_name="standings")
    op.drop_table("standings")
    op.drop_index("ix_results_tournament", table_name="results")
    op.drop_index("ix_results_day", table_name="results")
    op.drop_table("results")
    op.drop_index("ix_tournament_entries_user", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_index("ix_plays_tournament", table_name="plays")
    with op.batch_alter_table("plays") as batch:
        batch.drop_column("ended_at")
