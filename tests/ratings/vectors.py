"""The New Zealand handicap rule at its edges: (rating difference in stones, handicap,
even game allowed), checked on the pure policy and through the API."""

NZ_HANDICAP_EDGES = [
    (0, 0, True),
    (0.3, 1, True),
    (0.5, 1, False),
    (1.0, 1, False),
    (1.01, 2, False),
    (8.7, 9, False),
    (12, 9, False),
]
