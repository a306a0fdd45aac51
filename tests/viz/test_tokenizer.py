import pytest

from playground.viz import merges_table, token_spans
from playground.viz.tokenizer import span_labels

TEXT = "hi 中文"
# byte-level BPE: "中" split into two byte pieces with the same character offsets
SPANS = [("hi", 0, 2, 10), ("Ġ", 2, 3, 1), ("ä¸", 3, 4, 200), ("Ń", 3, 4, 201), ("æĸĩ", 4, 5, 300)]


def test_labels_are_text_slices_and_split_characters_are_numbered():
    assert span_labels(TEXT, SPANS) == ["hi", "␣", "中 1/2", "中 2/2", "文"]


def test_figure_draws_one_box_per_token_with_its_id_and_dashed_overlaps():
    fig = token_spans(TEXT, SPANS)
    assert len(fig.layout.shapes) == 5
    trace = fig.data[0]
    assert [t.split("<br>")[0] for t in trace.text] == ["hi", "␣", "中 1/2", "中 2/2", "文"]
    assert [c[1] for c in trace.customdata] == ["10", "1", "200", "201", "300"]
    assert [s.line.dash for s in fig.layout.shapes] == ["solid", "solid", "dash", "dash", "solid"]
    assert trace.customdata[2][2] == "3–4"


def test_boxes_wrap_onto_new_lines_in_reading_order():
    text = "abcdefgh " * 6
    spans = [(text[i:i + 9], i, i + 9, i) for i in range(0, len(text), 9)]
    fig = token_spans(text, spans, line_width=24)
    rows = list(fig.data[0].y)
    assert rows == sorted(rows) and rows[-1] > 0
    assert max(s.x1 for s in fig.layout.shapes) <= 24 * 0.62


def test_offsets_outside_the_text_are_refused():
    with pytest.raises(ValueError, match="outside the text of length 2"):
        token_spans("hi", [("hi", 0, 3, 1)])


def test_merges_in_order_with_merged_token():
    cells = merges_table([("t", "h"), ("th", "e"), ("Ġ", "the")]).data[0].cells.values
    assert list(cells[0]) == ["0", "1", "2"]
    assert list(cells[1]) == ["t", "th", "Ġ"]
    assert list(cells[3]) == ["th", "the", "Ġthe"]


def test_merges_table_ends_on_a_whole_row():
    from playground.viz.theme import TABLE_BORDER_PX, TABLE_HEADER_PX, TABLE_ROW_PX
    row = TABLE_ROW_PX + TABLE_BORDER_PX
    short = merges_table([("a", "b")] * 3).layout
    long = merges_table([("a", "b")] * 100).layout
    for layout in (short, long):
        rows_area = layout.height - layout.margin.t - layout.margin.b - TABLE_HEADER_PX - 4
        assert rows_area % row == 0
    assert (short.height - short.margin.t - short.margin.b - TABLE_HEADER_PX - 4) // row == 3
    assert long.height <= 720
