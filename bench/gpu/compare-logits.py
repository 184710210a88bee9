#!/usr/bin/env python3
"""Compares two logits files of `hearth-gpu-bench --tests logits --logits-out FILE` (f32 rows of the
vocabulary, the same steps in the same order): how many values differ bit for bit, each row's
relative error (L2 norm of the difference over the second file's row norm) and whether the rows'
top-1 tokens agree. Standard library only (the GPU machine has no numpy).

    bench/gpu/compare-logits.py A.bin B.bin [--vocab 32000]
Exit status 0 when the files are identical, 1 when they differ, 2 on unusable input.
"""
import argparse
import array
import math
import sys


def load(path):
    values = array.array("f")
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % 4:
        raise ValueError(f"{path}: {len(data)} bytes is not a whole number of f32 values")
    values.frombytes(data)
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--vocab", type=int, default=32000, help="values per row (llama8b / qwen shapes: their vocabulary)")
    args = ap.parse_args()
    try:
        x, y = load(args.a), load(args.b)
    except (OSError, ValueError) as e:
        print(e, file=sys.stderr)
        return 2
    V = args.vocab
    if len(x) != len(y) or V <= 0 or len(x) % V:
        print(f"{args.a}: {len(x)} values, {args.b}: {len(y)}; not the same whole rows of {V}", file=sys.stderr)
        return 2
    rows = len(x) // V
    differ = sum(1 for p, q in zip(x, y) if p != q and not (math.isnan(p) and math.isnan(q)))
    worst, same = 0.0, 0
    for r in range(rows):
        a, b = x[r * V:(r + 1) * V], y[r * V:(r + 1) * V]
        num = math.sqrt(sum((p - q) ** 2 for p, q in zip(a, b)))
        den = math.sqrt(sum(q * q for q in b)) or 1.0
        worst = max(worst, num / den)
        same += max(range(V), key=a.__getitem__) == max(range(V), key=b.__getitem__)
    print(f"{args.a} vs {args.b}: {differ} of {len(x)} values differ; worst row rel err {worst:.3e}; "
          f"top-1 {same}/{rows}")
    return 0 if differ == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
