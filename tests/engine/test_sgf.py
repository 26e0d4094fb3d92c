"""The generic SGF tree: parsing, escaping, limits, errors, writing."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import sgf
from games.engine.sgf import (
    Decoded,
    GameTree,
    Node,
    SgfError,
    charset_codec,
    decodings,
    escape,
    grammar,
    parse,
    serialise,
)


def one_node(text: str) -> Node:
    return parse(text)[0].nodes[0]


def test_it_reads_a_collection_of_game_trees_with_variations() -> None:
    trees = parse("(;FF[4]SZ[9];B[ee](;W[cc];B[gg])(;W[gc]))(;SZ[13])")
    assert len(trees) == 2
    first = trees[0]
    assert [n.properties for n in first.nodes] == [{"FF": ["4"], "SZ": ["9"]}, {"B": ["ee"]}]
    assert len(first.children) == 2
    assert [n.get("W") or n.get("B") for n in first.main_line()[2:]] == ["cc", "gg"]
    assert trees[1].nodes[0].get("SZ") == "13"


def test_a_property_may_have_several_values() -> None:
    assert one_node("(;AB[aa][bb]\n  [cc])").values("AB") == ["aa", "bb", "cc"]


def test_escaped_brackets_and_backslashes_are_unescaped() -> None:
    assert one_node(r"(;C[a \] b \\ c \x])").get("C") == r"a ] b \ c x"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\n\r"])
def test_a_soft_line_break_is_removed(newline: str) -> None:
    assert one_node(f"(;C[one \\{newline}line])").get("C") == "one line"


def test_hard_line_breaks_are_kept() -> None:
    assert one_node("(;C[one\ntwo])").get("C") == "one\ntwo"


def test_whitespace_between_tokens_and_junk_around_the_collection_are_ignored() -> None:
    trees = parse("From: someone\n\n ( ; SZ [9] ; B [ee] )\n\nsignature")
    assert trees[0].main_line()[1].get("B") == "ee"


def test_old_style_lowercase_letters_in_identifiers_are_dropped() -> None:
    assert one_node("(;AddBlack[aa]Comment[x])").properties == {"AB": ["aa"], "C": ["x"]}


def test_a_repeated_property_joins_its_values() -> None:
    assert one_node("(;AB[aa]C[x]AB[bb])").values("AB") == ["aa", "bb"]


def test_bytes_are_utf8_by_default_and_a_bom_is_dropped() -> None:
    assert one_node("\ufeff(;PB[Gō Seigen])".encode()).get("PB") == "Gō Seigen"


def test_bytes_are_decoded_with_the_ca_charset() -> None:
    assert one_node("(;CA[ISO-8859-1]PB[José])".encode("latin-1")).get("PB") == "José"
    assert one_node("(;CA[GB2312]PB[聂卫平])".encode("gb2312")).get("PB") == "聂卫平"


def test_a_ca_on_a_later_node_or_quoted_in_a_comment_does_not_decide() -> None:
    text = "(;C[write CA[ISO-8859-1\\] in the root]PB[聂卫平];CA[ISO-8859-1]B[dd])"
    assert one_node(text.encode("utf-8")).get("PB") == "聂卫平"


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("Windows-31J", "cp932"),
        ("x-sjis", "cp932"),
        ("MS_KANJI", "cp932"),
        ("Shift_JIS", "cp932"),
        ("GB2312", "gb18030"),
        ("GBK", "gb18030"),
        ("EUC-KR", "cp949"),
        ("Big5", "cp950"),
        (" utf-8 ", "utf-8"),
        ("ISO-8859-1", "iso8859-1"),
        ("klingon", None),
    ],
)
def test_charset_names_real_files_give_map_to_a_codec(name: str, codec: str | None) -> None:
    assert charset_codec(name) == codec


def test_without_ca_utf8_then_gb18030_then_latin1_each_named_in_a_warning() -> None:
    utf8 = [d.charset for d in decodings("(;PB[é])".encode())]
    assert utf8 == ["UTF-8", "GB18030", "ISO-8859-1"]
    (first, *_) = decodings("(;PB[聂卫平])".encode("gbk"))
    assert (first.text, first.charset) == ("(;PB[聂卫平])", "GB18030")
    assert first.warning == "no CA property names the charset: the text was read as GB18030"
    # 0xff is neither UTF-8 nor GB18030: only ISO-8859-1 is left.
    assert [d.charset for d in decodings(b"(;PB[\xff])")] == ["ISO-8859-1"]


def test_plain_ascii_needs_no_charset_and_gets_no_warning() -> None:
    assert list(decodings(b"(;SZ[9];B[ee])")) == [Decoded("(;SZ[9];B[ee])", "UTF-8")]


def test_an_unknown_or_wrong_ca_falls_back_with_a_warning() -> None:
    (unknown, *_) = decodings(b"(;CA[klingon]C[x\xc3\xa9])")
    assert (unknown.text, unknown.charset) == ("(;CA[klingon]C[xé])", "UTF-8")
    assert unknown.warning == (
        "CA[klingon] is not a charset goref knows: the text was read as UTF-8"
    )
    (wrong, *_) = decodings("(;CA[UTF-8]PB[聂卫平])".encode("gbk"))
    assert (wrong.text, wrong.charset) == ("(;CA[UTF-8]PB[聂卫平])", "GB18030")
    assert wrong.warning == "the file is not UTF-8 as its CA says: the text was read as GB18030"


def test_a_multibyte_charset_that_swallows_a_bracket_gives_way_to_the_next() -> None:
    # Latin-1 "é]" is a valid GB18030 pair that eats the closing bracket; the
    # GB18030 reading does not parse, so ISO-8859-1 is used.
    assert one_node("(;PB[José]PW[x];B[dd])".encode("latin-1")).get("PB") == "José"


@pytest.mark.parametrize(
    ("text", "line", "column", "prop", "words"),
    [
        ("(;SZ[9]\n;B[ee", 2, 3, "B", "not closed"),
        ("(;SZ[9];B[ee]", 1, 14, None, "end of file"),
        ("(;SZ[9]\n  ;B)", 2, 4, "B", "no value"),
        ("(;SZ[9];b[ee])", 1, 9, None, "no uppercase"),
        ("(;B[aa](;W[bb]);B[cc])", 1, 16, None, "cannot follow a variation"),
        ("(;B[aa]\n (W[bb]))", 2, 3, None, "expected ';'"),
        ("(;B[aa]()", 1, 9, None, "empty game tree"),
        ("(;B[aa] ?)", 1, 9, None, "unexpected '?'"),
    ],
)
def test_each_syntax_error_names_line_column_and_property(
    text: str, line: int, column: int, prop: str | None, words: str
) -> None:
    with pytest.raises(SgfError, match=words) as err:
        parse(text)
    assert (err.value.line, err.value.column, err.value.property) == (line, column, prop)
    assert str(err.value).startswith(f"line {line}, column {column}")


def test_text_without_a_game_tree_is_an_error() -> None:
    for text in ["", "hello", "()", "(B)", "( [aa])"]:
        with pytest.raises(SgfError, match="no SGF game tree"):
            parse(text)


def test_a_first_node_without_its_semicolon_is_read_as_if_it_had_one() -> None:
    # Nihon Ki-in writes "(\r\nTE[...]...;B[pd]...)".
    (tree,) = parse("(\r\nTE[x]SZ[9];B[ee])")
    assert [n.properties for n in tree.nodes] == [{"TE": ["x"], "SZ": ["9"]}, {"B": ["ee"]}]


def test_the_error_message_reads_line_column_property() -> None:
    err = SgfError("size 40 is out of range (2-25)", line=3, column=14, property="SZ")
    assert str(err) == "line 3, column 14, property SZ: size 40 is out of range (2-25)"
    assert isinstance(err, ValueError)


def quickly(text: str | bytes, words: str, **limits: int) -> SgfError:
    start = time.perf_counter()
    with pytest.raises(SgfError, match=words) as err:
        parse(text, **limits)
    assert time.perf_counter() - start < 2
    return err.value


def test_input_over_one_megabyte_is_refused() -> None:
    quickly(b"(;C[" + b"x" * 1_000_000 + b"])", "larger than 1,000,000 bytes")
    quickly("(;C[" + "é" * 500_000 + "])", "larger than 1,000,000 bytes")


def test_more_than_twenty_thousand_nodes_are_refused() -> None:
    quickly("(" + ";B[aa]" * 20_001 + ")", "first game has more than 20,000 nodes")


def test_deep_nesting_is_refused_without_recursion() -> None:
    quickly("(;" * 100_000, "nested deeper than 1000")
    quickly("(" * 100_000, "no SGF game tree")
    quickly("(;B[aa]" + "(" * 100_000, "must start with a node")
    quickly("(;" * 50 + ")" * 50, "nested deeper than 10", max_depth=10)


def test_a_thousand_nested_variations_still_parse_and_write() -> None:
    text = "(;B[aa]" * 1000 + ")" * 1000
    trees = parse(text)
    depth, tree = 1, trees[0]
    while tree.children:
        depth, tree = depth + 1, tree.children[0]
    assert depth == 1000
    assert parse(serialise(trees)) == trees


def test_a_long_unterminated_value_fails_quickly() -> None:
    quickly("(;C[" + "\\]" * 300_000, "not closed")


def test_escape_doubles_backslashes_and_escapes_closing_brackets() -> None:
    assert escape(r"a]b\c") == r"a\]b\\c"


@pytest.mark.parametrize(
    "value", ["", "plain", "a ] b", "back\\slash", "trailing\\", "line\nbreak", "\\\n", "[x]"]
)
def test_values_round_trip_through_the_writer(value: str) -> None:
    tree = GameTree(nodes=[Node({"C": [value], "AB": ["aa", "bb"]})])
    assert parse(serialise(tree)) == [tree]


def test_a_collection_with_variations_round_trips() -> None:
    text = "(;FF[4]GM[1]SZ[9];B[ee](;W[cc](;B[gg])(;B[gc]))(;W[gc]))(;SZ[13]C[two])"
    trees = parse(text)
    assert parse(serialise(trees)) == trees


def test_the_writer_refuses_empty_trees_and_bad_identifiers() -> None:
    with pytest.raises(ValueError, match="empty game tree"):
        serialise(GameTree())
    with pytest.raises(ValueError, match="identifier"):
        serialise(GameTree(nodes=[Node({"b": ["aa"]})]))


def test_node_errors_point_at_the_property() -> None:
    node = parse("(;SZ[9]\n  KM[x])")[0].nodes[0]
    err = node.error("KM", "komi 'x' is not a number")
    assert (err.line, err.column, err.property) == (2, 3, "KM")


def test_a_deep_tree_has_a_shallow_repr() -> None:
    trees = parse("(;B[aa]" * 1000 + ")" * 1000)
    assert repr(trees[0]) == "GameTree(nodes=1, children=1)"


def test_a_charset_name_with_a_nul_in_it_is_an_unknown_charset() -> None:
    from games.engine.sgf import charset_codec, parse

    assert charset_codec("\x00latin-1") is None
    assert parse(b"(;GM[1]CA[\x00latin-1]SZ[9];B[aa])")[0].nodes[0].get("SZ") == "9"


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["AB", "TW", "C", "CoPyright", "B"]),
            st.lists(st.text(alphabet="ab]\\[ \n:", max_size=4), min_size=1, max_size=6),
            st.sampled_from(["", " ", "\n", "\t"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_the_fast_reader_reads_runs_of_values_as_the_careful_reader_does(
    props: list[tuple[str, list[str], str]],
) -> None:
    body = "".join(
        ident + space.join(f"[{escape(v)}]" for v in values) + space
        for ident, values, space in props
    )
    text = f"(;FF[4]{body};{body})"
    start = text.index("(")
    src = grammar._Source(text)
    fast = grammar._fast_read(src, start, sgf.MAX_NODES, sgf.MAX_DEPTH)
    assert fast is not None
    assert fast == grammar._Reader(src, sgf.MAX_NODES, sgf.MAX_DEPTH).read(start)
    assert fast[0].nodes[1].properties.get("CP") == fast[0].nodes[0].properties.get("CP")


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["AB", "TW", "C", "CoPyright", "B", "X" * 33, ""]),
            st.lists(st.text(alphabet="ab]\\[ \n:;()", max_size=4), min_size=0, max_size=6),
            st.sampled_from(["", " ", "\n", "\t", "x"]),
        ),
        max_size=6,
    ),
    st.sampled_from([")", ";B[aa])", "(;W[bb]))", " )"]),
)
def test_a_node_read_in_bulk_is_the_node_the_tokens_read(
    props: list[tuple[str, list[str], str]], after: str
) -> None:
    body = "".join(
        ident + space.join(f"[{v}]" for v in values) + space for ident, values, space in props
    )
    text = f"(;{body}{after}"
    read = grammar.read_node(grammar._Source(text), 1)
    if read is None:  # not the simple case: the tokens decide
        return
    node, end = read
    assert end == grammar.node_end(text, 2)
    # The node alone, as the record reader hands it to the tokens otherwise.
    assert node.properties == sgf.parse_text(text[:end] + ")")[0].nodes[0].properties


@pytest.mark.parametrize(
    "text",
    [
        "(;GM[1]SZ[9]AB[aa][bb]AW[cc];B[dd])",
        "(;AB[aa] [bb]\n[cc]\tAW[dd])",
        "(;C[a;b)c(]AB[aa](;B[bb]))",
    ],
)
def test_a_simple_node_is_read_in_bulk(text: str) -> None:
    # The property test above returns early whenever read_node leaves a node to the
    # tokens: these simple nodes must be read in bulk, or it would check nothing.
    read = grammar.read_node(grammar._Source(text), 1)
    assert read is not None, f"read_node left {text!r} to the tokens"
    node, end = read
    assert end == grammar.node_end(text, 2)
    assert node.properties == sgf.parse_text(text[:end] + ")")[0].nodes[0].properties
