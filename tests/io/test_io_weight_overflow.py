"""Integer weights beyond int64 in text files: refused on their line, read as floats on request."""

import numpy as np
import pytest

from parmst import io
from parmst.cli import main
from parmst.errors import GraphFormatError

BIG = "100000000000000000000000"
FILES = {
    "g.txt": f"0 1 1\n1 2 {BIG}\n",
    "g.gr": f"p sp 3 2\na 1 2 1\na 2 3 {BIG}\n",
    "g.mtx": f"%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n2 1 1\n3 2 {BIG}\n",
    "g.pbbs": f"WeightedEdgeArray\n0 1 1\n1 2 {BIG}\n",
}


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("sign", ["", "-"])
def test_integer_beyond_int64_is_refused_with_its_line(name, sign, tmp_path):
    path = tmp_path / name
    text = FILES[name].replace(BIG, sign + BIG)
    path.write_text(text)
    line = text.splitlines().index(next(t for t in text.splitlines() if BIG in t)) + 1
    with pytest.raises(GraphFormatError, match=f"line {line}: integer weight {sign}{BIG} does "
                                               "not fit int64"):
        io.read(path)
    assert io.read(path, weight_dtype="float64").weight.tolist()[-1] == float(sign + BIG)


def test_the_largest_int64_and_a_float_literal_still_read(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("0 1 9223372036854775807\n1 2 -9223372036854775808\n")
    assert io.read(path).weight.dtype == np.int64
    path.write_text(f"0 1 1\n1 2 {BIG}.0\n")
    assert io.read(path).weight.tolist() == [1.0, 1e23]


def test_cli_names_the_line_without_python_keywords(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text(FILES["g.txt"])
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"g.txt, line 2: integer weight {BIG} does not fit int64" in err
    assert "weight_dtype" not in err and err.count("\n") == 1
