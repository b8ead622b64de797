"""R4: the seeded shuffle is uniform — every card is equally likely in every position.

36 × 36 (card, position) counts over 20,000 consecutive seeds, Pearson's chi-square with
(36 - 1)² degrees of freedom (rows and columns are both fixed totals), compared with critical
values from the Wilson–Hilferty approximation (no scipy). Both tails: a shuffle that is too
even would be as suspicious as a biased one. Also: SHA-256 commitments and seeds from a CSPRNG.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence

import pytest

from durak_core import Card, RuleSet, new_game, seed_commitment
from durak_core.deck import SEED_BITS, seed_bytes, shuffled_deck

SEEDS = 20_000
Z = 3.719  # one-sided normal quantile for p = 1e-4: a false alarm once in 10,000 runs


def chi2_bounds(df: int, z: float = Z) -> tuple[float, float]:
    """Wilson–Hilferty: (chi²/df)^(1/3) is about normal with mean 1 - 2/(9 df)."""
    m, s = 1 - 2 / (9 * df), math.sqrt(2 / (9 * df))
    return df * (m - z * s) ** 3, df * (m + z * s) ** 3


def position_chi2(
    shuffle: Callable[[RuleSet, int], Sequence[Card]], n_seeds: int = SEEDS
) -> tuple[float, int]:
    rules = RuleSet()
    deck = rules.deck()
    index = {c: i for i, c in enumerate(deck)}
    n = len(deck)
    counts = [[0] * n for _ in range(n)]
    for seed in range(n_seeds):
        for pos, card in enumerate(shuffle(rules, seed)):
            counts[index[card]][pos] += 1
    expected = n_seeds / n
    stat = sum((c - expected) ** 2 / expected for row in counts for c in row)
    return stat, (n - 1) ** 2


def test_wilson_hilferty_matches_known_quantiles() -> None:
    # chi²(0.999, df=100) = 149.45; (0.001, df=100) = 61.92 (tables)
    low, high = chi2_bounds(100, 3.0902)
    assert abs(high - 149.45) < 0.5 and abs(low - 61.92) < 0.5


def test_card_positions_are_uniform_over_many_seeds() -> None:
    stat, df = position_chi2(shuffled_deck)
    low, high = chi2_bounds(df)
    assert low < stat < high, (stat, df, low, high)


@pytest.mark.slow
def test_a_biased_shuffle_is_caught() -> None:
    """The test has power: the classic off-by-one Fisher–Yates (j drawn from all n) fails."""

    def naive(rules: RuleSet, seed: int) -> list[Card]:
        rng = random.Random(seed)
        cards = list(rules.deck())
        for i in range(len(cards)):
            j = rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    stat, df = position_chi2(naive)
    assert stat > chi2_bounds(df)[1]


def test_commitment_is_sha256_of_the_seed_and_binds_the_deck() -> None:
    seed = random.SystemRandom().getrandbits(SEED_BITS)
    assert seed_commitment(seed) == hashlib.sha256(seed.to_bytes(32, "big")).hexdigest()
    assert seed_bytes(seed) == seed.to_bytes(32, "big")
    game = new_game(RuleSet(), 3, seed=seed)
    assert list(game.order_cards()) == shuffled_deck(RuleSet(), seed)
    assert shuffled_deck(RuleSet(), seed) != shuffled_deck(RuleSet(), seed ^ 1)
