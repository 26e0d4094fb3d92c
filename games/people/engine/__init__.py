"""People's pure part: names as imports and searches compare them, and the federations'
player ids.  The standard library only."""
