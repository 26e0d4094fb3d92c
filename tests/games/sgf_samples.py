"""Small SGF records for the games tests (19x19 unless named otherwise)."""

# Black Q16, White D4, Black Q4, White D16, White D3 (D4-D3 one chain).
SIMPLE = "(;GM[1]FF[4]SZ[19]KM[6.5]RE[B+R]\n;B[pd];W[dp];B[pp];W[dd];B[qj];W[dq])"

# Move 2 plays on an occupied point: readable, but illegal.
ILLEGAL = "(;GM[1]FF[4]SZ[19]KM[6.5]\n;B[pd]\n;W[pd]\n;B[dp])"

# Line 3 names a point off the board.
BROKEN = "(;GM[1]FF[4]SZ[19]KM[6.5]\n;B[pd]\n;W[zz])"

# A 9x9 record (the tournament plays 19x19).
NINE = "(;GM[1]FF[4]SZ[9]KM[6.5];B[ee];W[cc])"

# TB marks the White stone at D16 (dd) dead.
MARKUP = "(;GM[1]FF[4]SZ[19]KM[6.5]\n;B[pd];W[dd];B[pp];W[];B[]TB[dd][aa])"
