"""People playing: a game session between people and agents (``Session``,
the model of ``hotspot play`` and of a web front end), typed commands, and
the terminal front end (``hotspot play --technocrat human``)."""

from .commands import CommandError, command_of, parse_command
from .session import HUMAN, Decision, LegalAction, Session, SessionError, board_dict

__all__ = [
    "HUMAN",
    "CommandError",
    "Decision",
    "LegalAction",
    "Session",
    "SessionError",
    "board_dict",
    "command_of",
    "parse_command",
]
