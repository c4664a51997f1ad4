"""Little-endian float64 files, as the TS benches write and read them (bench/bandit.bench.ts, bench/thompson-speed.bench.ts)."""
import sys
from array import array


def read(path):
    """The float64 values of the file at `path`."""
    values = array("d")
    values.frombytes(path.read_bytes())
    if sys.byteorder != "little":
        values.byteswap()
    return values


def write(path, numbers):
    """Writes `numbers` to `path` as float64."""
    values = array("d", numbers)
    if sys.byteorder != "little":
        values.byteswap()
    path.write_bytes(values.tobytes())
