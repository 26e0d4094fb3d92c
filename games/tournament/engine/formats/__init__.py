"""Tournament files as plain values: OpenGotha's XML, the EGF results format, the
spreadsheet and text exports (docs/formats.md)."""
