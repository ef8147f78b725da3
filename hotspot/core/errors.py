"""Why an action is refused: codes returned by the compiled legality checks,
and the messages the Python API raises with."""

OK = 0
ERR_GAME_OVER = 1
ERR_BAD_ACTION = 2
ERR_WRONG_PHASE = 3
ERR_NO_SUCH_PIECE = 4
ERR_NOT_YOUR_PIECE = 5
ERR_PIECE_DONE = 6
ERR_PIECE_CANNOT_MOVE = 7
ERR_NOTHING_SELECTED = 8
ERR_MANEUVER_NOT_FOR_PIECE = 9
ERR_HEX_OCCUPIED = 10
ERR_NO_SUCH_UNIT = 11
ERR_NOT_YOUR_UNIT = 12
ERR_UNIT_DONE = 13
ERR_NO_MOVEMENT_LEFT = 14
ERR_OFF_MAP = 15
ERR_MOLTEN = 16
ERR_STACKING = 17
ERR_ZERO_ATTACK = 18
ERR_SECOND_MOVE_ENEMY = 19
ERR_NOT_INFANTRY = 20
ERR_CANNOT_SPLIT = 21
ERR_CANNOT_COMBINE = 22
ERR_NOT_A_COMBAT = 23
ERR_COMBATS_PENDING = 24
ERR_CANNOT_NEUTRALIZE = 25
ERR_NEUTRALIZED = 26
ERR_NOT_HOVERCRAFT = 27
ERR_ALREADY_SELECTED = 28
ERR_SETTING_UP = 29
ERR_CHOOSE_FIRST = 30
ERR_ITEM_CHOSEN = 31
ERR_NOT_YOUR_FORCE = 32
ERR_POOL_SHORT = 33
ERR_CRUSTALS_FIRST = 34
ERR_PLATFORMS_FIRST = 35
ERR_COUNTER_CAP = 36
ERR_LEAVES_NO_ROOM = 37
ERR_SETUP_HEX = 38
ERR_FACING_NEEDED = 39
ERR_SETUP_NO_FACING = 40
ERR_LOSS_PENDING = 42
ERR_NOT_A_LOSS = 43
ERR_COMBINED = 44

MESSAGES = {
    OK: "legal",
    ERR_GAME_OVER: "the game is over",
    ERR_BAD_ACTION: "not an action of this game (out of range)",
    ERR_WRONG_PHASE: "this kind of action is not taken in the current phase (4.0)",
    ERR_NO_SUCH_PIECE: "there is no such crustal or attack platform in play",
    ERR_NOT_YOUR_PIECE: "the player to move does not control that piece (4.0 A/E, 15.2)",
    ERR_PIECE_DONE: "that piece has already moved this phase (6.8)",
    ERR_PIECE_CANNOT_MOVE: "that piece has no legal move (6.8)",
    ERR_NOTHING_SELECTED: "select a piece or unit first",
    ERR_MANEUVER_NOT_FOR_PIECE: "the selected piece cannot make that maneuver (6.3-6.7, 6.10)",
    ERR_HEX_OCCUPIED: "a hex of that maneuver holds another crustal or platform (6.2, 6.8)",
    ERR_NO_SUCH_UNIT: "there is no such unit in play",
    ERR_NOT_YOUR_UNIT: "that unit belongs to the other side",
    ERR_UNIT_DONE: "that unit has finished moving this phase (8.1, 8.3)",
    ERR_NO_MOVEMENT_LEFT: "the selected unit has no movement left (8.1)",
    ERR_OFF_MAP: "units cannot leave the map (D3)",
    ERR_MOLTEN: "the rules options forbid moving units into molten hexes (8.2 variant)",
    ERR_STACKING: "that hex would exceed the stacking limit (9.1, 9.2)",
    ERR_ZERO_ATTACK: "a unit with no attack factor may not enter a hex with enemy units (12.2)",
    ERR_SECOND_MOVE_ENEMY: "in the second movement hovercraft may enter no enemy hex but one of engineers only (13.3)",
    ERR_NOT_INFANTRY: "only infantry breaks down or combines (10.0)",
    ERR_CANNOT_SPLIT: (
        "that counter cannot split (one squad, no free counter, no room in the hex, "
        "or over the counter cap) (10.0, 9.1, 9.2, D22)"
    ),
    ERR_CANNOT_COMBINE: (
        "those counters cannot combine (same type and hex, at most 3 squads, no enemy "
        "in the hex, within the counter cap) (10.0, D22)"
    ),
    ERR_NOT_A_COMBAT: "that unit is not the first attacker of a contested hex (12.1, 12.7)",
    ERR_COMBATS_PENDING: "every combat must be resolved before the phase ends (12.1)",
    ERR_CANNOT_NEUTRALIZE: "no neutralization attempt can be made on that crustal now (15.4)",
    ERR_NEUTRALIZED: "a neutralized crustal cannot move (15.4)",
    ERR_NOT_HOVERCRAFT: "only hovercraft move in the second movement phase (13.1)",
    ERR_ALREADY_SELECTED: "that piece or unit is already selected",
    ERR_SETTING_UP: "the players are setting up: only set-up actions are taken (3.2, 3.3, D21)",
    ERR_CHOOSE_FIRST: "choose what to place first (3.2, 3.3, D21)",
    ERR_ITEM_CHOSEN: "finish placing the item already chosen (a choice commits, D21)",
    ERR_NOT_YOUR_FORCE: "that belongs to the other side's force pool (3.2, 3.3)",
    ERR_POOL_SHORT: "the force pool has too little left for that (3.2, 3.3, D4, D21)",
    ERR_CRUSTALS_FIRST: "the Ziegler player places all his crustals before his units (3.2)",
    ERR_PLATFORMS_FIRST: "the Technocrat places all his attack platforms before loading units (3.3, R3.1)",
    ERR_COUNTER_CAP: "no infantry counter of that size is left (rules option counter_cap, D22)",
    ERR_LEAVES_NO_ROOM: "placing that would leave no room for the rest of the force pool (9.1, 9.2, D21)",
    ERR_SETUP_HEX: (
        "not a hex where that may be set up (3.2: crustals on molten hexes of the map, one "
        "piece a hex; 3.3: platforms on molten perimeter hexes; units on their side's pieces)"
    ),
    ERR_FACING_NEEDED: "choose the facing of the crustal being placed (SETUP_FACING)",
    ERR_SETUP_NO_FACING: "only a crustal of two or three hexes, once its hex is chosen, takes a facing",
    ERR_LOSS_PENDING: "the owner must first choose the counter that loses a squad (D22 losses=owner)",
    ERR_NOT_A_LOSS: "that counter cannot take the pending loss (infantry of the losing side in that hex)",
    ERR_COMBINED: "a counter made by combining may not split again this phase (10.0, R10.2)",
}


def short_repr(value, limit: int = 80) -> str:
    """``repr(value)`` for an error message, at most ``limit`` characters; never
    raises (an int of more digits than Python turns into text is shown by its
    size, a value whose repr fails by its type)."""
    try:
        text = repr(value)
    except ValueError:  # sys.get_int_max_str_digits(): 4300 digits by default
        text = (
            f"<an integer of {int(value).bit_length()} bits>"
            if isinstance(value, int)
            else f"<a {type(value).__name__} holding an integer too long to print>"
        )
    except Exception:  # noqa: BLE001 - a hostile object's __repr__
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
