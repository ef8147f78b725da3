"""The card of a committed evaluation made again from its games, on the current published scale.

    python benchmarks/card_from_games.py benchmarks/results/evaluate-stock --png docs/evaluate_card.png

A committed evaluation folder keeps its card (``card.json``, ``card.txt``)
and every game (``*.games.jsonl.gz``), not the run folder or the agent (the
stock recipe's models are not committed).  When the published scale is
refitted (``fit_reference_ratings.py``), the card's ratings are recomputed
here from the same games, opponents, stopping reasons and protocol
(:func:`hotspot.arena.evaluate.evaluation_card`); the scores and intervals
do not change, the ratings do.  The folder's card.json and card.txt are
rewritten, and with ``--png`` its picture.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from hotspot.arena.evaluate import card_text, evaluation_card, full_table, plot_card
from hotspot.arena.rating import load_reference
from hotspot.arena.stats import json_safe

#: what the old card says about its run, kept as it was
KEPT = ("partial", "partial_reason", "left_out", "remaining", "played_now", "wall_s", "warm_up_s", "folder")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("folder", type=Path, help="a committed evaluation: card.json and *.games.jsonl.gz")
    p.add_argument("--png", type=Path, default=None, help="also draw the card's picture here")
    args = p.parse_args(argv)
    old = json.loads((args.folder / "card.json").read_text(encoding="utf-8"))
    rows = []
    for path in sorted(args.folder.glob("*.games.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    opponents = [e["opponent"] for e in old["opponents"]]
    stopped = {e["opponent"]: e["stopped"] for e in old["opponents"]}
    card = evaluation_card(old["agent"], rows, opponents, stopped, load_reference(), old["protocol"])
    card.update({k: old[k] for k in KEPT if k in old})
    card["text"] = card_text(card)
    (args.folder / "card.json").write_text(json.dumps(json_safe(card), indent=1) + "\n", encoding="utf-8")
    wide = f"{card['text']}\n\nFull table (every column; card.json has them all):\n{full_table(card)}\n"
    (args.folder / "card.txt").write_text(wide, encoding="utf-8")
    if args.png:
        plot_card(card, args.png)
    ratings = card["ratings"] or {}
    print(f"{old['agent']}: {len(rows)} games; " + ", ".join(f"{k} {v['text']}" for k, v in ratings.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
