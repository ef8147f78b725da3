"""Every number of the game in one place: units, crustal shapes, charts and the
rules options (16.0, 2.2, D4-D7, D13, D14, D19, D22).

The tables are plain numpy arrays, computed once at import, and read by the
compiled rules.  Everything a scenario or a balance test may change lives in
the *rules options* record (``RULES_DTYPE``), which is stored inside every game
state, so that a batch of games may mix options and a saved game carries the
rules it was played under.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from .errors import short_repr

# ---------------------------------------------------------------- sides (3.1)
ZIEGLER = 0
TECHNOCRAT = 1
SIDE_NAMES = ("ziegler", "technocrat")


def side_index(side) -> int:
    """A side given as 0/1 or a name (any case) as its index; ``ValueError`` otherwise."""
    if isinstance(side, str) and side.lower() in SIDE_NAMES:
        return SIDE_NAMES.index(side.lower())
    if isinstance(side, (int, np.integer)) and not isinstance(side, (bool, np.bool_)) and side in (ZIEGLER, TECHNOCRAT):
        return int(side)
    raise ValueError(f"unknown side {short_repr(side)}; expected 'ziegler' or 'technocrat' (or 0/1)")


# -------------------------------------------------------- unit types (2.2.1)
NO_UNIT = 0
Z_INFANTRY = 1
Z_HOVERCRAFT = 2
T_INFANTRY = 3
T_CRAWLER = 4
T_HEAVY_BEAMER = 5
T_ENGINEER = 6
NUM_UNIT_TYPES = 7
# D20, 9.5: in an information state (``observation.observe`` with fog) a
# counter the observer cannot see has type UNKNOWN_UNIT, an infantry counter
# of unseen size squads UNKNOWN_SQUADS.  Never an index into the tables
# below (``UNIT_SIDE[-1]`` would wrap round to the Technocrat): the helpers
# of ``units`` check for them.
UNKNOWN_UNIT = -1
UNKNOWN_SQUADS = -1
UNIT_NAMES = ("none", "infantry", "hovercraft", "infantry", "crawler", "heavy_beamer", "engineer")
UNIT_SIDE = np.array([-1, ZIEGLER, ZIEGLER, TECHNOCRAT, TECHNOCRAT, TECHNOCRAT, TECHNOCRAT], dtype=np.int8)
UNIT_IS_INFANTRY = np.array([0, 1, 0, 1, 0, 0, 0], dtype=np.bool_)
# 11.1: crawlers and heavy beamers may overrun Ziegler infantry
UNIT_CAN_OVERRUN = np.array([0, 0, 0, 0, 1, 1, 0], dtype=np.bool_)
# short letters for text rendering (upper case Technocrat, lower case Ziegler)
UNIT_LETTERS = ("?", "i", "h", "I", "C", "B", "E")

# ----------------------------------------------- crustals and platforms (2.2)
NO_PIECE = 0
CENTRAL = 1
ONE_HEX = 2
TWO_HEX = 3
TRIANGULAR = 4
LONG = 5
PLATFORM = 6
NUM_PIECE_KINDS = 7
PIECE_NAMES = ("none", "central", "one_hex", "two_hex", "triangular", "long", "platform")
PIECE_SIZE = np.array([0, 7, 1, 2, 3, 3, 1], dtype=np.int8)
MAX_PIECE_CELLS = 3  # every movable piece has at most three hexes
CENTRAL_PIECE = 0  # piece index 0 is always the Central Crustal (D2)

# --------------------------------------------------------------- phases (4.0)
PHASE_Z_CRUSTAL = 0  # A
PHASE_Z_MOVE = 1  # B
PHASE_Z_COMBAT = 2  # C
PHASE_Z_SECOND = 3  # D
PHASE_T_CRUSTAL = 4  # E
PHASE_T_MOVE = 5  # F
PHASE_T_COMBAT = 6  # G
PHASE_CONTROL = 7  # H
PHASE_OVER = 8
PHASE_Z_SETUP = 9  # 3.2, D21: the Ziegler player sets up
PHASE_T_SETUP = 10  # 3.3, D21: the Technocrat player sets up
NUM_PHASES = 11
PHASE_LETTERS = ("A", "B", "C", "D", "E", "F", "G", "H", "-", "Z", "T")
PHASE_NAMES = (
    "Ziegler crustal movement",
    "Ziegler regular movement",
    "Ziegler combat",
    "Ziegler second movement",
    "Technocrat crustal and attack platform movement",
    "Technocrat regular movement",
    "Technocrat combat",
    "Crustal control",
    "game over",
    "Ziegler set-up",
    "Technocrat set-up",
)
PHASE_PLAYER = np.array([ZIEGLER] * 4 + [TECHNOCRAT] * 4 + [-1, ZIEGLER, TECHNOCRAT], dtype=np.int8)

# ------------------------------------------------- set-up pools (3.2, 3.3, D21)
# What each side still has to place during its set-up phase, in the state's
# ``pool`` field (one count per entry).  The rulebook's force pools are
# RULEBOOK_FORCES; a scenario may preset part of them (D21).
POOL_Z_CRUSTAL_HEXES = 0  # 3.2: 18 hexes of crustals of any types (D12)
POOL_Z_SQUADS = 1  # 3.2: 42 attack factors of infantry = 42 squads (D4)
POOL_Z_HOVERCRAFT = 2  # 3.2: 6 hovercraft
POOL_T_PLATFORMS = 3  # 3.3: 5 attack platforms
POOL_T_SQUADS = 4  # 3.3: 24 attack factors of infantry = 12 squads (D4)
POOL_T_ENGINEERS = 5  # 3.3: 3 engineer squads
POOL_T_CRAWLERS = 6  # 3.3: 6 crawlers
POOL_T_HEAVY_BEAMERS = 7  # 3.3: 2 heavy beamers
NUM_POOLS = 8
POOL_NAMES = (
    "ziegler crustal hexes",
    "ziegler infantry squads",
    "ziegler hovercraft",
    "technocrat attack platforms",
    "technocrat infantry squads",
    "technocrat engineer squads",
    "technocrat crawlers",
    "technocrat heavy beamers",
)
# scenario keys of the pools, by side
POOL_KEYS = (
    "crustal_hexes",
    "infantry_squads",
    "hovercraft",
    "platforms",
    "infantry_squads",
    "engineers",
    "crawlers",
    "heavy_beamers",
)
POOL_SIDE = np.array([ZIEGLER] * 3 + [TECHNOCRAT] * 5, dtype=np.int8)
RULEBOOK_FORCES = np.array([18, 42, 6, 5, 12, 3, 6, 2], dtype=np.int16)  # 3.2, 3.3, D4

# set-up items: what one placement puts down (chosen by SETUP_CHOOSE, D21)
ITEM_ONE_HEX = 0
ITEM_TWO_HEX = 1
ITEM_TRIANGULAR = 2
ITEM_LONG = 3
ITEM_Z_INFANTRY_1 = 4  # a Ziegler infantry counter of 1, 2 or 3 squads (10.0, D4)
ITEM_Z_INFANTRY_2 = 5
ITEM_Z_INFANTRY_3 = 6
ITEM_HOVERCRAFT = 7
ITEM_PLATFORM = 8
ITEM_T_INFANTRY_1 = 9
ITEM_T_INFANTRY_2 = 10
ITEM_T_INFANTRY_3 = 11
ITEM_ENGINEER = 12
ITEM_CRAWLER = 13
ITEM_HEAVY_BEAMER = 14
NUM_ITEMS = 15
ITEM_NAMES = (
    "one-hex crustal",
    "two-hex crustal",
    "triangular crustal",
    "long crustal",
    "Ziegler infantry (1 squad)",
    "Ziegler infantry (2 squads)",
    "Ziegler infantry (3 squads)",
    "hovercraft",
    "attack platform",
    "Technocrat infantry (1 squad)",
    "Technocrat infantry (2 squads)",
    "Technocrat infantry (3 squads)",
    "engineer squad",
    "crawler",
    "heavy beamer",
)
ITEM_SIDE = np.array([ZIEGLER] * 8 + [TECHNOCRAT] * 7, dtype=np.int8)
ITEM_POOL = np.array([0, 0, 0, 0, 1, 1, 1, 2, 3, 4, 4, 4, 5, 6, 7], dtype=np.int8)
# how much of its pool one item takes (crustal hexes, squads, or one counter)
ITEM_AMOUNT = np.array([1, 2, 3, 3, 1, 2, 3, 1, 1, 1, 2, 3, 1, 1, 1], dtype=np.int8)
# piece kind of a piece item (0 for units), unit type of a unit item (0 for pieces): below
ITEM_PIECE_KIND = np.array([ONE_HEX, TWO_HEX, TRIANGULAR, LONG, 0, 0, 0, 0, PLATFORM, 0, 0, 0, 0, 0, 0], dtype=np.int8)
ITEM_UNIT_TYPE = np.array(
    [
        0,
        0,
        0,
        0,
        Z_INFANTRY,
        Z_INFANTRY,
        Z_INFANTRY,
        Z_HOVERCRAFT,
        0,
        T_INFANTRY,
        T_INFANTRY,
        T_INFANTRY,
        T_ENGINEER,
        T_CRAWLER,
        T_HEAVY_BEAMER,
    ],
    dtype=np.int8,
)

# --------------------------------------------------------------- results (5.0)
ONGOING = 0
TECHNOCRAT_WIN = 1
ZIEGLER_WIN = 2
RESULT_NAMES = ("ongoing", "technocrat wins", "ziegler wins")

# ------------------------------------------ Combat Results Table (16.0, D13)
CRT_NE = 0
CRT_C = 1
CRT_X = 2
CRT_RESULT_NAMES = ("NE", "C", "X")
ODDS_NAMES = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1")
# row = die roll - 1, column = odds index (1:3 .. 4:1).  Rows 1-3 are printed
# (16.0); rows 4-6 are lost and completed by one of two readings, chosen by
# the rules option ``combat_table`` (D22): CRT_TABLES[0] = D13's rows (the
# default), CRT_TABLES[1] = the strict continuation of the surviving rows'
# diagonals (the first C and the first X each move one column left per row).
CRT_TABLES = np.array(
    [
        [  # "d13" (default): D13's completion
            [CRT_NE, CRT_NE, CRT_NE, CRT_NE, CRT_C, CRT_C],
            [CRT_NE, CRT_NE, CRT_NE, CRT_C, CRT_C, CRT_X],
            [CRT_NE, CRT_NE, CRT_C, CRT_C, CRT_X, CRT_X],
            [CRT_NE, CRT_NE, CRT_C, CRT_X, CRT_X, CRT_X],
            [CRT_NE, CRT_C, CRT_X, CRT_X, CRT_X, CRT_X],
            [CRT_C, CRT_C, CRT_X, CRT_X, CRT_X, CRT_X],
        ],
        [  # "diagonal": rows 1-3 as printed, the diagonals continued (D22)
            [CRT_NE, CRT_NE, CRT_NE, CRT_NE, CRT_C, CRT_C],
            [CRT_NE, CRT_NE, CRT_NE, CRT_C, CRT_C, CRT_X],
            [CRT_NE, CRT_NE, CRT_C, CRT_C, CRT_X, CRT_X],
            [CRT_NE, CRT_C, CRT_C, CRT_X, CRT_X, CRT_X],
            [CRT_C, CRT_C, CRT_X, CRT_X, CRT_X, CRT_X],
            [CRT_C, CRT_X, CRT_X, CRT_X, CRT_X, CRT_X],
        ],
    ],
    dtype=np.int8,
)
CRT = CRT_TABLES[0]  # the default table (D13), for existing imports

# --------------------------------------- Close Infantry Assault Table (16.0)
CIA_SQUAD_LOST = 0  # Ziegler infantry loses 1 attack factor
CIA_NO_EFFECT = 1
CIA_OVERRUNNER_ELIMINATED = 2
CIA_RESULT_NAMES = ("ziegler squad lost", "no effect", "overrunning counter eliminated")
CIA_TABLE = np.array(
    [CIA_SQUAD_LOST, CIA_NO_EFFECT, CIA_NO_EFFECT, CIA_NO_EFFECT, CIA_OVERRUNNER_ELIMINATED, CIA_OVERRUNNER_ELIMINATED],
    dtype=np.int8,
)

# Crustal Damage Chart and Crustal Control Chart (16.0) are thresholds held in
# the rules options (damage_roll_max, control_roll_max): a roll <= the value
# succeeds.

# ------------------------------------------------------ dice charts, for logs
CHART_CRUSTAL_DAMAGE = 0  # collisions (14.3)
CHART_STRESS = 1  # stress, on the Crustal Damage Chart (14.2)
CHART_CRT = 2  # combat (12.4)
CHART_CIA = 3  # close infantry assault (11.2)
CHART_CONTROL = 4  # control attempt (15.2)
CHART_NEUTRALIZE = 5  # neutralization attempt (15.4)
CHART_NAMES = (
    "crustal damage",
    "stress",
    "combat results",
    "close infantry assault",
    "crustal control",
    "neutralization",
)

# ------------------------------------------------------------ rules options
RULES_DTYPE = np.dtype(
    [
        ("platform_turns", "i2"),  # 14.5: platforms break up in this turn's control phase
        ("first_turn_one_hex_move", "i1"),  # 6.10, D11
        ("one_hex_move", "i1"),  # 6.3
        ("platform_move", "i1"),  # 6.7
        ("hover_second_move", "i1"),  # 13.1
        ("two_hex_turn_after_collision", "i1"),  # D10 (1 = rule 7.3, 0 = example six of 7.6)
        ("forbid_molten_entry", "i1"),  # 8.2 variant: 0 = printed rule (unit destroyed)
        ("stack_side_crustal", "i1"),  # 9.1: one side, one crustal hex
        ("stack_total_crustal", "i1"),  # 9.1: both sides, one crustal hex
        ("stack_platform", "i1"),  # 9.2
        ("stress_threshold", "i1"),  # 9.3, 14.2: stress when more than this many units
        ("damage_roll_max", "i1"),  # Crustal Damage Chart: damage on a roll <= this
        ("control_roll_max", "i1"),  # Crustal Control Chart (15.2)
        ("neutralize_roll_max", "i1"),  # 15.4
        ("cia_enabled", "i1"),  # 11.2 / D15: close infantry assaults always made
        ("combat_table", "i1"),  # D22/D13: 0 = D13's rows 4-6, 1 = the diagonals continued
        ("stress_timing", "i1"),  # D22/9.3: 0 = every over-six hex, 1 = hexes the mover overstacked
        ("forward_into_blocked", "i1"),  # D22/6.8: 0 = starts and collides, 1 = refused
        ("collision_count", "i1"),  # D22/D9: 0 = one per piece pair, 1 = one per hex entered
        ("losses", "i1"),  # D22/D15: 0 = automatic, smallest counter first; 1 = the owner chooses
        ("counter_cap", "i1"),  # D22/D4: infantry counters of each size a side has; 0 = unlimited
        ("control_blocker", "i1"),  # D22/15.2: 0 = Ziegler combat unit anywhere on it; 1 = in the hex
        ("sees_through_fog", "i1"),  # D20 probe (R9.5b): 0 neither, 1 Technocrat, 2 Ziegler, 3 both
        ("damage_rating", "i1", (NUM_PIECE_KINDS,)),  # D7, by piece kind
        ("attack", "i1", (NUM_UNIT_TYPES,)),  # D4/D5, infantry per squad
        ("defense", "i1", (NUM_UNIT_TYPES,)),
        ("movement", "i1", (NUM_UNIT_TYPES,)),
    ]
)


def _by_kind(**values) -> tuple:
    return tuple(values.get(name, 0) for name in PIECE_NAMES)


# D22: the disputed readings that are rules options, their values (the first
# is the default) and what each means (docs/rules.md, "Rules options").
CHOICE_OPTIONS = {
    "combat_table": ("d13", "diagonal"),  # D13 rows 4-6, or the surviving diagonals continued
    "stress_timing": ("every_phase", "moving_side"),  # 9.3: every over-six hex, or the mover's
    "forward_into_blocked": ("collide", "refuse"),  # 6.8: forward into an occupied second hex
    "collision_count": ("per_pair", "per_hex"),  # 7.2/7.6 ex. 5, D9
    "losses": ("automatic", "owner"),  # 12.5.2, 11.2, D15: who picks the squad lost
    "control_blocker": ("crustal", "hex"),  # 15.2/15.5: where a Ziegler combat unit blocks control
    # R9.5b: a restricted-play probe, not a reading of the rules: the side(s)
    # whose information state (observation.observe with fog) shows every
    # counter and every piece's damage (D20 off for that side; dice stay hidden)
    "sees_through_fog": ("neither", "technocrat", "ziegler", "both"),
}

# The index stored in the rules record for the alternative (non-default)
# value of each choice option the compiled rules test (0 is the default).
COMBAT_TABLE_DIAGONAL = CHOICE_OPTIONS["combat_table"].index("diagonal")  # combat.resolve_combat
STRESS_MOVING_SIDE = CHOICE_OPTIONS["stress_timing"].index("moving_side")  # damage.stress_check_all
FORWARD_REFUSE = CHOICE_OPTIONS["forward_into_blocked"].index("refuse")  # crustal_movement
COLLISIONS_PER_HEX = CHOICE_OPTIONS["collision_count"].index("per_hex")  # collisions
CONTROL_BLOCKER_HEX = CHOICE_OPTIONS["control_blocker"].index("hex")  # control.control_attempts
# sees_through_fog's index as a bit set: bit 0 the Technocrat, bit 1 the Ziegler (observation.observe)
SEES_TECHNOCRAT, SEES_ZIEGLER = 1, 2


@dataclass(frozen=True)
class RulesOptions:
    """Every rules variant we allow, with the defaults of D1-D22.

    Build one with keyword arguments (``RulesOptions(combat_table="diagonal")``)
    or from a mapping (``RulesOptions.from_dict({...})``); an unknown name or a
    value out of range raises ``ValueError`` naming it and the valid values.
    ``damage_rating``, ``attack``, ``defense`` and ``movement`` are dicts keyed
    by piece kind / unit type name (unit keys are ``ziegler_infantry``,
    ``technocrat_crawler`` ...).  There is no turn limit (5.0, D19 revised):
    a harness's ``max_turns`` truncates a game instead.
    """

    platform_turns: int = 4
    first_turn_one_hex_move: int = 1
    one_hex_move: int = 3
    platform_move: int = 4
    hover_second_move: int = 3
    two_hex_turn_after_collision: bool = True
    forbid_molten_entry: bool = False
    stack_side_crustal: int = 9
    stack_total_crustal: int = 12
    stack_platform: int = 9
    stress_threshold: int = 6
    damage_roll_max: int = 1
    control_roll_max: int = 2
    neutralize_roll_max: int = 2
    cia_enabled: bool = True
    combat_table: str = "d13"
    stress_timing: str = "every_phase"
    forward_into_blocked: str = "collide"
    collision_count: str = "per_pair"
    losses: str = "automatic"
    counter_cap: int = 0
    control_blocker: str = "crustal"
    sees_through_fog: str = "neither"
    damage_rating: dict = field(default_factory=lambda: dict(one_hex=2, two_hex=3, triangular=4, long=4, platform=2))
    attack: dict = field(
        default_factory=lambda: dict(
            ziegler_infantry=1,
            ziegler_hovercraft=2,
            technocrat_infantry=2,
            technocrat_crawler=3,
            technocrat_heavy_beamer=4,
            technocrat_engineer=0,
        )
    )
    defense: dict = field(
        default_factory=lambda: dict(
            ziegler_infantry=1,
            ziegler_hovercraft=2,
            technocrat_infantry=2,
            technocrat_crawler=3,
            technocrat_heavy_beamer=2,
            technocrat_engineer=0,
        )
    )
    movement: dict = field(
        default_factory=lambda: dict(
            ziegler_infantry=3,
            ziegler_hovercraft=6,
            technocrat_infantry=3,
            technocrat_crawler=3,
            technocrat_heavy_beamer=2,
            technocrat_engineer=3,
        )
    )

    _RANGES = {
        "platform_turns": (1, 1000),
        "first_turn_one_hex_move": (0, 3),
        "one_hex_move": (0, 10),
        "platform_move": (0, 10),
        "hover_second_move": (0, 10),
        "stack_side_crustal": (1, 40),
        "stack_total_crustal": (1, 40),
        "stack_platform": (1, 40),
        "stress_threshold": (0, 40),
        "damage_roll_max": (0, 6),
        "control_roll_max": (0, 6),
        "neutralize_roll_max": (0, 6),
        "counter_cap": (0, 99),
    }

    def __post_init__(self):
        for name, (lo, hi) in self._RANGES.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not lo <= value <= hi:
                raise ValueError(f"rules option {name!r} must be an integer in [{lo}, {hi}], got {short_repr(value)}")
        for name in ("two_hex_turn_after_collision", "forbid_molten_entry", "cia_enabled"):
            if not isinstance(getattr(self, name), (bool, int, np.integer)) or getattr(self, name) not in (0, 1):
                raise ValueError(f"rules option {name!r} must be true or false, got {short_repr(getattr(self, name))}")
        for name, choices in CHOICE_OPTIONS.items():
            if getattr(self, name) not in choices:
                raise ValueError(
                    f"rules option {name!r} must be one of {list(choices)}, got {short_repr(getattr(self, name))}"
                )
        defaults = RulesOptions.__dataclass_fields__
        for name in ("damage_rating", "attack", "defense", "movement"):
            allowed = set(defaults[name].default_factory())
            given = getattr(self, name)
            if not isinstance(given, dict):
                raise ValueError(f"rules option {name!r} must be a mapping, got {short_repr(given)}")
            for key, value in given.items():
                if key not in allowed:
                    raise ValueError(
                        f"rules option {name!r} has unknown key {short_repr(key)}; known keys: {sorted(allowed)}"
                    )
                if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= 99:
                    raise ValueError(f"rules option {name}[{short_repr(key)}] must be an integer in [0, 99]")
            merged = dict(defaults[name].default_factory())
            merged.update(given)
            object.__setattr__(self, name, merged)

    @staticmethod
    def describe() -> dict:
        """Every option's name -> its valid values (a list of strings, or "[lo, hi]"/"true|false")."""
        out = {}
        for f in fields(RulesOptions):
            if f.name in CHOICE_OPTIONS:
                out[f.name] = list(CHOICE_OPTIONS[f.name])
            elif f.name in RulesOptions._RANGES:
                lo, hi = RulesOptions._RANGES[f.name]
                out[f.name] = f"integer in [{lo}, {hi}]"
            elif isinstance(f.default, bool):
                out[f.name] = "true or false"
            else:
                out[f.name] = "mapping of integers"
        return out

    @classmethod
    def from_dict(cls, values: dict | None) -> "RulesOptions":
        values = dict(values or {})
        known = {f.name for f in fields(cls)}
        for key in values:
            if key == "turn_limit":
                raise ValueError(
                    "'turn_limit' is no longer a rules option: the rulebook has no turn "
                    "limit (5.0, D19 revised); a harness's max_turns truncates a game "
                    "without a winner instead"
                )
            if key not in known:
                raise ValueError(f"unknown rules option {short_repr(key)}; known options: {sorted(known)}")
        return cls(**values)

    def to_dict(self) -> dict:
        return {
            f.name: (dict(getattr(self, f.name)) if isinstance(getattr(self, f.name), dict) else getattr(self, f.name))
            for f in fields(self)
        }

    def to_record(self) -> np.ndarray:
        """The options as a ``RULES_DTYPE`` record (what the compiled core reads)."""
        rec = np.zeros((), dtype=RULES_DTYPE)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "damage_rating":
                for kind, rating in value.items():
                    rec["damage_rating"][PIECE_NAMES.index(kind)] = rating
            elif f.name in ("attack", "defense", "movement"):
                for key, v in value.items():
                    rec[f.name][unit_type_from_key(key)] = v
            elif f.name in CHOICE_OPTIONS:
                rec[f.name] = CHOICE_OPTIONS[f.name].index(value)
            else:
                rec[f.name] = int(value)
        return rec

    @classmethod
    def from_record(cls, rec) -> "RulesOptions":
        values = {}
        for f in fields(cls):
            if f.name == "damage_rating":
                values[f.name] = {k: int(rec["damage_rating"][PIECE_NAMES.index(k)]) for k in f.default_factory()}
            elif f.name in ("attack", "defense", "movement"):
                values[f.name] = {k: int(rec[f.name][unit_type_from_key(k)]) for k in f.default_factory()}
            elif f.name in CHOICE_OPTIONS:
                i = int(rec[f.name])
                if not 0 <= i < len(CHOICE_OPTIONS[f.name]):
                    raise ValueError(f"rules option {f.name!r} holds {i}, not a valid value")
                values[f.name] = CHOICE_OPTIONS[f.name][i]
            elif isinstance(f.default, bool):
                values[f.name] = bool(rec[f.name])
            else:
                values[f.name] = int(rec[f.name])
        return cls(**values)


def unit_type_from_key(key: str) -> int:
    """``'ziegler_infantry'`` -> Z_INFANTRY, ``'technocrat_heavy_beamer'`` -> T_HEAVY_BEAMER."""
    side, _, name = key.partition("_")
    if side not in SIDE_NAMES:
        raise ValueError(f"unknown unit {short_repr(key)}")
    return unit_type(SIDE_NAMES.index(side), name)


def unit_type(side: int, name: str) -> int:
    """Unit type code for a side and a unit name (infantry, hovercraft, crawler, heavy_beamer, engineer)."""
    for t in range(1, NUM_UNIT_TYPES):
        if UNIT_SIDE[t] == side and UNIT_NAMES[t] == name:
            return t
    names = [UNIT_NAMES[t] for t in range(1, NUM_UNIT_TYPES) if UNIT_SIDE[t] == side]
    raise ValueError(f"unknown {SIDE_NAMES[side]} unit type {name!r}; known: {names}")


DEFAULT_RULES = RulesOptions()
