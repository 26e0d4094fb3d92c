"""Exact maximum-weight perfect matching on integer weights.

rustworkx's ``max_weight_matching`` (Edmonds' blossom algorithm with the
primal-dual method, compiled) works on integers end to end, so weights up to
OpenGotha's 10^15 per pair and 10^17 per round stay exact; a float would lose the
lower criteria (colour balance, seeding) under the higher ones.
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx


class NoPerfectMatching(ValueError):
    """Some players cannot all be paired (an odd count, or forbidden pairs)."""


def max_weight_perfect_matching(
    n: int, edges: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int]]:
    """Pairs (i, j), i < j, of a perfect matching of nodes 0..n-1 with the largest
    total weight; ``edges`` are (i, j, weight) with weight > 0 (a missing edge
    forbids the pair).
    """
    if n % 2:
        raise NoPerfectMatching(f"{n} players cannot all be paired")
    graph = rustworkx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(n))
    graph.add_edges_from(list(edges))
    found = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=_weight)
    pairs = sorted((min(i, j), max(i, j)) for i, j in found)
    if 2 * len(pairs) != n:
        raise NoPerfectMatching("the allowed pairs leave someone unpaired")
    return pairs


def _weight(value: int) -> int:
    return value
