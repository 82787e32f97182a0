"""Pairs rounds with caissify-pairings' Dutch engine for tests/dutch_oracle.rs.

Reads one JSON request a line on stdin (the engine's own input: players,
previous_pairings, round_number, total_rounds, initial_color) and writes
one JSON answer a line: the pairs (white, black), the byes, and whether
the engine fell back to pairing outside the rules (it logs that when no
legal pairing exists, then pairs anyway).
"""

import json
import logging
import sys

from caissify_pairings.engines.dutch import DutchEngine


class FallbackSeen(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.seen = False

    def emit(self, record):
        text = record.getMessage()
        if "fallback" in text or "backtracking" in text or "forced byes" in text:
            self.seen = True


def main():
    handler = FallbackSeen()
    log = logging.getLogger("caissify_pairings.engines.dutch")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    for line in sys.stdin:
        req = json.loads(line)
        handler.seen = False
        out = DutchEngine(
            players=req["players"],
            previous_pairings={tuple(p) for p in req["previous_pairings"]},
            round_number=req["round_number"],
            total_rounds=req["total_rounds"],
            initial_color=req["initial_color"],
        ).generate_pairings()
        pairs, byes = [], []
        for row in out:
            if row.get("bye") or row.get("black_id") is None:
                byes.append(row["white_id"])
            else:
                pairs.append([row["white_id"], row["black_id"]])
        print(json.dumps({"pairs": pairs, "byes": byes, "fallback": handler.seen}), flush=True)


if __name__ == "__main__":
    main()
