"""The distributions bench/run.sh asks of drumhead, computed by icepool.

icepool caches what it has computed, so a repeated call measures a cache
lookup; each case is therefore timed on its first computation, after a
warm-up on an unrelated pool. Prints microseconds and the command."""
import sys
import time

import icepool


def successes(dice, at_least):
    # How many of `dice` d6 show `at_least` or more: a shooting pool.
    return dice @ (icepool.d6 >= at_least)


def resilience_melee_lost_round_general():
    # 2D6 - 2 (lost round) + 1 (general), as a distribution of scores.
    return 2 @ icepool.d6 - 1


CASES = {
    "odds roll 60d6>=4": lambda: successes(60, 4),
    "odds roll 30d6>=4": lambda: successes(30, 4),
    "odds resilience melee lost-round general": resilience_melee_lost_round_general,
}

successes(7, 3).probabilities()  # warm-up: imports, the d6 itself

for line in sys.argv[1:]:
    start = time.perf_counter()
    CASES[line]().probabilities()
    print(f"{(time.perf_counter() - start) * 1e6:.1f}\t{line}")
