#!/usr/bin/env python3
"""Writes the seed and regression corpus for the GGUF reader fuzzer (tests/fuzz/corpus).

seed-*.gguf parse; broken-*.gguf are hostile files the reader must refuse with an error value.
Run once when the corpus changes; the files are committed (each is a few hundred bytes)."""
import os
import struct

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
os.makedirs(out, exist_ok=True)


def s(x):
    b = x.encode()
    return struct.pack("<Q", len(b)) + b


def kv_str(k, v):
    return s(k) + struct.pack("<I", 8) + s(v)


def kv_u32(k, v):
    return s(k) + struct.pack("<II", 4, v)


def kv_arr_str(k, items):
    return s(k) + struct.pack("<IIQ", 9, 8, len(items)) + b"".join(s(i) for i in items)


def tinfo(name, dims, typ, off):
    return s(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims) + struct.pack("<IQ", typ, off)


def build(version=3, n_tensors=None, n_kv=None, kvs=None, infos=None, data=b"", align=32):
    kvs = kvs if kvs is not None else [kv_str("general.architecture", "llama"), kv_u32("llama.block_count", 1),
                                       kv_arr_str("tokenizer.ggml.tokens", ["<s>", "a"])]
    infos = infos if infos is not None else [tinfo("w", [8, 2], 0, 0)]
    hdr = struct.pack("<IIQQ", 0x46554747, version, len(infos) if n_tensors is None else n_tensors,
                      len(kvs) if n_kv is None else n_kv) + b"".join(kvs) + b"".join(infos)
    hdr += b"\0" * ((-len(hdr)) % align)
    return hdr + data


good = build(data=bytes(range(64)))
files = {
    "seed-valid.gguf": good,
    "broken-empty.gguf": b"",
    "broken-magic.gguf": b"GGUX" + good[4:],
    "broken-version1.gguf": good[:4] + struct.pack("<I", 1) + good[8:],
    "broken-truncated-header.gguf": good[:30],
    "broken-truncated-data.gguf": good[:-5],
    "broken-tensor-count.gguf": build(n_tensors=1 << 40, data=bytes(64)),
    "broken-tensor-count-plus-one.gguf": build(n_tensors=2, data=bytes(64)),
    "broken-kv-count.gguf": build(n_kv=1 << 60),
    "broken-string-length.gguf": build(kvs=[s("k")[:8].replace(struct.pack("<Q", 1), struct.pack("<Q", 1 << 62)) + b"k"]),
    "broken-array-count.gguf": build(kvs=[s("a") + struct.pack("<IIQ", 9, 4, 1 << 58)]),
    "broken-value-type.gguf": build(kvs=[s("a") + struct.pack("<I", 42)]),
    "broken-tensor-type.gguf": build(infos=[tinfo("w", [8, 2], 5, 0)], data=bytes(64)),
    "broken-offset-past-end.gguf": build(infos=[tinfo("w", [8, 2], 0, 1 << 40)], data=bytes(64)),
    "broken-offset-misaligned.gguf": build(infos=[tinfo("w", [8, 2], 0, 7)], data=bytes(64)),
    "broken-dims-zero.gguf": build(infos=[tinfo("w", [8, 0], 0, 0)], data=bytes(64)),
    "broken-dims-many.gguf": build(infos=[tinfo("w", [1, 1, 1, 1, 1], 0, 0)], data=bytes(64)),
    "broken-dims-overflow.gguf": build(infos=[tinfo("w", [1 << 32, 1 << 32, 1 << 8], 0, 0)], data=bytes(64)),
    "broken-block-size.gguf": build(infos=[tinfo("w", [33], 8, 0)], data=bytes(64)),
    "broken-alignment.gguf": build(kvs=[kv_u32("general.alignment", 3)]),
    "broken-duplicate-tensor.gguf": build(infos=[tinfo("w", [8], 0, 0), tinfo("w", [8], 0, 32)], data=bytes(64)),
    "broken-duplicate-key.gguf": build(kvs=[kv_u32("a", 1), kv_u32("a", 2)]),
    "broken-bool.gguf": build(kvs=[s("b") + struct.pack("<IB", 7, 9)]),
    "broken-deep-array.gguf": build(kvs=[s("d") + struct.pack("<IIQ", 9, 9, 1) * 12 + struct.pack("<IQ", 4, 0)]),
}
for name, data in files.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print(f"wrote {len(files)} files to {out}")
