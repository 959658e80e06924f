"""Point files: .npy, .csv and .parquet read right, and bad files give one clear error."""

import gzip

import numpy as np
import pytest

from parmst.errors import GraphFileNotFoundError, GraphFormatError
from parmst.io.points import read_points

POINTS = np.array([[0.5, 1.0, -2.0], [3.0, 4.25, 1e-3], [7.0, 8.0, 9.0]])


def _csv(tmp_path, text, name="p.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_npy_any_numeric_dtype(tmp_path):
    path = tmp_path / "p.npy"
    np.save(path, POINTS)
    np.testing.assert_array_equal(read_points(path), POINTS)
    np.save(path, POINTS.astype(np.float32))
    assert read_points(path).dtype == np.float32
    np.save(path, np.arange(4, dtype=np.int16))  # 1-D: one coordinate per point
    got = read_points(path)
    assert got.dtype == np.float64 and got.shape == (4, 1)
    np.save(path, POINTS)
    np.testing.assert_array_equal(read_points(path, columns="2,0"), POINTS[:, [2, 0]])


def test_csv_with_and_without_header(tmp_path):
    rows = "\n".join(",".join(repr(v) for v in row) for row in POINTS.tolist())
    np.testing.assert_array_equal(read_points(_csv(tmp_path, rows + "\n")), POINTS)
    with_header = _csv(tmp_path, "# made by hand\nx, y ,z\n\n" + rows, "h.csv")
    np.testing.assert_array_equal(read_points(with_header), POINTS)
    np.testing.assert_array_equal(read_points(with_header, columns="z,x"), POINTS[:, [2, 0]])
    np.testing.assert_array_equal(read_points(with_header, columns=[1]), POINTS[:, [1]])
    zipped = tmp_path / "p.csv.gz"
    zipped.write_bytes(gzip.compress(rows.encode()))
    np.testing.assert_array_equal(read_points(zipped), POINTS)
    assert read_points(_csv(tmp_path, "x,y\n", "e.csv")).shape == (0, 2)


def test_parquet_numeric_columns(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"x": POINTS[:, 0], "y": POINTS[:, 1].astype(np.float32),
                             "z": np.array([1, 2, 3]), "name": ["a", "b", "c"]}), path)
    got = read_points(path, columns="x,y,z")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, np.column_stack([POINTS[:, 0], POINTS[:, 1], [1, 2, 3]]))
    with pytest.raises(GraphFormatError, match="column name holds string values; points are "
                                               "numbers .pick the coordinate columns"):
        read_points(path)
    pq.write_table(pa.table({"x": pa.array([1.0, None, 2.0])}), path)
    with pytest.raises(GraphFormatError, match="point 1, column x: missing value"):
        read_points(path)
    pq.write_table(pa.table({"x": [1.0, 2.0], "y": [0.0, float("inf")]}), path)
    with pytest.raises(GraphFormatError, match="point 1, column y: coordinate inf"):
        read_points(path)


@pytest.mark.parametrize(("name", "content", "columns", "message"), [
    ("r.csv", "1,2\n3,4\n5\n", None, (r"r.csv, line 3: 1 fields where the first row "
                                      r"has 2 \(ragged rows\)")),
    ("r.csv", "1,2\n3,4,5\n", None, "line 2: 3 fields where the first row has 2"),
    ("n.csv", "x,y\n1,2\n3,abc\n", None, "line 3: column y: 'abc' is not a number"),
    ("n.csv", "x,y\n1,2\n\n3,nan\n", None, "line 4: point 1, column y: coordinate nan"),
    ("n.csv", "1,2\n-inf,2\n", None, (r"line 2: point 1, column 0: coordinate -inf "
                                      r"\(points must be finite")),
    ("c.csv", "x,y\n1,2\n", "x,w", "no column 'w'; its columns are x, y"),
    ("c.csv", "x,y\n1,2\n", "5", r"no column 5: it has 2 \(positions count from 0\)"),
    ("e.csv", "\n# nothing\n", None, "no points and no header"),
    ("p.txt", "1,2\n", None, "not a point file: the name should end in .npy, .csv"),
])
def test_bad_text_files(tmp_path, name, content, columns, message):
    with pytest.raises(GraphFormatError, match=message):
        read_points(_csv(tmp_path, content, name), columns=columns)


def test_bad_npy_files(tmp_path):
    path = tmp_path / "p.npy"
    with pytest.raises(GraphFileNotFoundError, match="no such file"):
        read_points(path)
    path.write_bytes(b"not numpy")
    with pytest.raises(GraphFormatError, match="not a NumPy .npy array"):
        read_points(path)
    np.save(path, np.zeros((2, 2, 2)))
    with pytest.raises(GraphFormatError, match="3-D array of shape"):
        read_points(path)
    np.save(path, np.array(["a", "b"]))
    with pytest.raises(GraphFormatError, match="holds <U1 values"):
        read_points(path)
    np.save(path, np.zeros((3, 0)))
    with pytest.raises(GraphFormatError, match=r"no coordinate columns \(d = 0\)"):
        read_points(path)
    np.save(path, np.array([[1.0, np.nan]]))
    with pytest.raises(GraphFormatError, match="point 0, column 1: coordinate nan"):
        read_points(path)
    np.save(path, POINTS)
    with pytest.raises(GraphFormatError, match="no column names: pick columns by position"):
        read_points(path, columns="x")
