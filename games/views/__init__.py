"""Public pages and the players' and directors' result forms, one module per area: games,
players, dead stones, invitations.  The tournament pages live in ``games.tournament.views``."""
