#!/usr/bin/env python3
"""Benchmark the engine; see analysis/bench.py.  Usage: python scripts/bench.py [--quick] [--markdown BENCHMARKS.md]"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.bench import main  # noqa: E402

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="small sizes (smoke run)")
    ap.add_argument("--markdown", default=None, help="also write the table to this file")
    a = ap.parse_args()
    sys.exit(main(quick=a.quick, out=a.markdown))
