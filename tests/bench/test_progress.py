"""Warnings and log lines printed while the progress bar is shown go above it, through tqdm."""

import logging
import warnings

from tqdm import tqdm

from parmst.bench.progress import progress_bar


def test_warnings_and_log_lines_go_through_tqdm_write(monkeypatch):
    written = []
    monkeypatch.setattr(tqdm, "write", classmethod(
        lambda cls, text, file=None, end="\n", nolock=False: written.append(text)))
    shown = warnings.showwarning
    root = logging.getLogger()
    handler = logging.StreamHandler()
    root.addHandler(handler)
    try:
        with progress_bar(2, enabled=True) as bar:
            warnings.warn("planted warning", UserWarning, stacklevel=1)
            logging.getLogger("parmst.test").warning("planted log line")
            bar.update(2)
    finally:
        root.removeHandler(handler)
    assert any("UserWarning: planted warning" in text for text in written)
    assert "planted log line" in written
    assert warnings.showwarning is shown  # restored when the bar closes


def test_what_a_peers_worker_prints_is_relayed_through_tqdm_write(monkeypatch):
    import io

    from parmst.bench.peer_runner import _relay

    written = []
    monkeypatch.setattr(tqdm, "write", classmethod(
        lambda cls, text, file=None, end="\n", nolock=False: written.append(text)))
    _relay(io.BytesIO(b"a library's warning\nsecond line \xff\n"))
    assert written == ["a library's warning", "second line \ufffd"]
