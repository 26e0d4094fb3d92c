"""The compiled matching against a second implementation (networkx, pure Python)."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from games.tournament.engine.pairing.matching import NoPerfectMatching, max_weight_perfect_matching


def _networkx_total(n: int, edges: list[tuple[int, int, int]]) -> int:
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    assert 2 * len(found) == n
    weight = {frozenset((i, j)): w for i, j, w in edges}
    return sum(weight[frozenset(pair)] for pair in found)


def _graph(rnd: random.Random, n: int, low: int, high: int, density: float):  # type: ignore[no-untyped-def]
    edges = [
        (i, j, rnd.randint(low, high))
        for i in range(n)
        for j in range(i + 1, n)
        if j == i + 1 or rnd.random() < density
    ]
    return edges


@pytest.mark.parametrize("seed", range(40))
def test_it_finds_the_same_optimum_as_networkx(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.choice([2, 4, 6, 8, 10, 14, 20, 30])
    kind = seed % 4
    if kind == 0:  # weights near 10^16: exact integers are needed
        edges = _graph(rnd, n, 10**16 - 10**6, 10**16, 1.0)
    elif kind == 1:  # many ties
        edges = _graph(rnd, n, 1, 3, 1.0)
    elif kind == 2:  # OpenGotha-like: huge base plus small differences
        edges = [
            (i, j, 5 * 10**14 * rnd.randint(0, 1) + rnd.randint(1, 10**11))
            for i, j, _ in _graph(rnd, n, 1, 1, 1.0)
        ]
    else:  # sparse graphs, a perfect matching kept possible by the path i, i+1
        edges = _graph(rnd, n, 1, 10**15, 0.3)
    pairs = max_weight_perfect_matching(n, edges)
    weight = {(i, j): w for i, j, w in edges}
    assert sorted(p for pair in pairs for p in pair) == list(range(n))
    assert sum(weight[pair] for pair in pairs) == _networkx_total(n, edges)


def test_weights_a_float_cannot_tell_apart_are_told_apart() -> None:
    # Near 2^55 doubles are 8 apart: as floats both matchings weigh the same.
    big = 2**55
    edges = [(0, 1, big + 1), (2, 3, big + 1), (0, 2, big + 3), (1, 3, big)]
    assert float(big + 1) + float(big + 1) == float(big + 3) + float(big)
    assert max_weight_perfect_matching(4, edges) == [(0, 2), (1, 3)]


def test_an_odd_count_or_a_forbidden_pair_is_refused() -> None:
    with pytest.raises(NoPerfectMatching):
        max_weight_perfect_matching(3, [(0, 1, 1), (1, 2, 1)])
    with pytest.raises(NoPerfectMatching):
        max_weight_perfect_matching(4, [(0, 1, 1), (0, 2, 1), (0, 3, 1)])
