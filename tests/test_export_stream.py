"""Streaming JSON reports (export/stream.py): the same text as ``to_json()``, written atomically."""

from __future__ import annotations

import json

import pytest
from interrupts import interrupt_streamed_report_at

from symbolic_ti import derive
from symbolic_ti.export import stream


def _strip_created(text):
    d = json.loads(text)
    d["meta"].pop("created")
    return d


@pytest.mark.parametrize("encoding", ["srepr", "poly"])
def test_stream_writes_what_to_json_writes(tmp_path, encoding):
    r = derive(6, ["5>2"], ridge="1/10")
    path = tmp_path / "r.json"
    stream.write_json(r, path, encoding=encoding)
    text = path.read_text(encoding="utf-8")
    whole = r.to_json(encoding=encoding)
    assert text.endswith("\n") and _strip_created(text) == _strip_created(whole)
    created = json.loads(whole)["meta"]["created"]  # byte for byte, once the time of writing is the same
    assert text.replace(json.loads(text)["meta"]["created"], created) == whole + "\n"


def test_interrupted_stream_leaves_nothing(tmp_path, monkeypatch):
    r = derive(5, ["4>2"])
    path = tmp_path / "r.json"
    path.write_text("old", encoding="utf-8")
    interrupt_streamed_report_at(monkeypatch, 7)  # in the predictions
    with pytest.raises(KeyboardInterrupt):
        stream.write_json(r, path)
    assert path.read_text(encoding="utf-8") == "old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]
