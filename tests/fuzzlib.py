"""Mutation fuzzing of sigfast's readers, shared by ``tests/test_fuzz.py`` (hypothesis, a
bounded budget in CI) and ``benches/fuzz_campaign.py`` (a long campaign).

A *target* reads one or two files (gold, system). Its seed files are small valid inputs
(``tests/data`` for the formats, generated ones for ``sigfast.io.read_items``); a mutation
edits the bytes of one of them. The contract under test: every call returns a result or
raises a ``SigfastError``; anything else (``ValueError``, ``IndexError``, ``MemoryError``,
a crash) is a bug.
"""

from __future__ import annotations

import gzip
import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data"

# (gold, system) seed files of each format, relative to tests/data
FORMAT_SEEDS: dict[str, tuple[str, str]] = {
    "aer": ("alignment/gold.pharaoh", "alignment/system.pharaoh"),
    "alignment": ("alignment/gold.pharaoh", "alignment/system.pharaoh"),
    "pharaoh": ("alignment/gold.pharaoh", "alignment/system.pharaoh"),
    "naacl": ("alignment/gold.naacl", "alignment/system.naacl"),
    "conll07": ("dependency/basic.gold.conllx", "dependency/basic.sys.conllx"),
    "conllx": ("dependency/basic.gold.conllx", "dependency/basic.sys.conllx"),
    "conll08": ("dependency/basic.gold.conll08", "dependency/basic.sys.conll08"),
    "conll09": ("dependency/basic.gold.conll09", "dependency/basic.sys.conll09"),
    "conll2012": ("analysis/coref_key.conll", "analysis/coref_r1.conll"),
    "conlleval": ("", "chunk/iob1.txt"),  # one file: token ... gold-tag system-tag
    "ner": ("chunk/ner_gold.txt", "chunk/ner_system.txt"),
    "conllu": ("conllu/func-gold.conllu", "conllu/func-sys.conllu"),
    "evalb": ("trees/gold.mrg", "trees/test.mrg"),
    "penn": ("trees/gold.mrg", "trees/test.mrg"),
    "mt": ("mt/edge.ref1", "mt/edge.hyp"),
    "pos": ("pos/gold.txt", "pos/system.txt"),
    "rouge": ("summarization/edge.ref", "summarization/edge.sys"),
    "tsv": ("", "items/scores.tsv"),  # per-item values: no gold
    "jsonl": ("", "items/f1.jsonl"),
    "npy": ("", "items/scores.npy"),
    # LLM logs: one file per system, the gold inside (tests/data/llm/SOURCE.md; the fuzz/ files are cut from them)
    "lm-eval": ("", "llm/fuzz/lmeval_samples.jsonl"),
    "inspect": ("", "llm/inspect/figqa_alpha_12items.eval"),
    "helm": ("", "llm/fuzz/helm_per_instance_stats.json"),
    "lighteval": ("", "llm/fuzz/lighteval_details.parquet"),
    "records": ("", "llm/fuzz/records.jsonl"),
    "battles": ("", "battles/arena.jsonl"),
}

# tokens that tend to break number and layout parsing
SPECIAL = [
    b"nan",
    b"inf",
    b"-inf",
    b"1e400",
    b"-1e308",
    b"1" + b"0" * 400,
    b"\xef\xbb\xbf",
    b"\x00",
    b"\t",
    b"\n",
    b"\r\n",
    b" ",
    b"#",
    b"-",
    b"_",
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b"}",
    b'"',
    b":",
    b",",
    b"0",
    b"-1",
    b"999999999999",
    b"\xff\xfe",
    b"\xc3",
    b"NaN",
    b"true",
    b"null",
    b"(((((((((((((",
]


def _npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def _items_seeds() -> dict[str, bytes]:
    rng = np.random.default_rng(0)
    scores = rng.random(12)
    counts = np.stack([rng.integers(0, 3, 12), rng.integers(3, 6, 12), rng.integers(3, 6, 12)], 1)
    tsv = "tp\tguessed\tgold\n" + "".join("\t".join(str(int(v)) for v in r) + "\n" for r in counts)
    jsonl = "".join(f'{{"tp": {r[0]}, "guessed": {r[1]}, "gold": {r[2]}}}\n' for r in counts)
    return {
        "tsv": "".join(f"{v:.6f}\n" for v in scores).encode(),
        "tsv_header": tsv.encode(),
        "jsonl": jsonl.encode(),
        "npy": _npy_bytes(scores),
        "npy_2d": _npy_bytes(counts.astype(np.float64)),
        "tsv.gz": gzip.compress(tsv.encode()),
    }


ZIP_METHODS = {"stored": 0, "deflate": 8, "zstd": 93}


def compress_member(data: bytes, codec: str) -> bytes:
    """``data`` compressed as a zip member's payload (stored, raw deflate, or a zstd frame as Inspect writes)."""
    import zlib

    if codec == "stored":
        return data
    if codec == "deflate":
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    import zstandard

    return zstandard.ZstdCompressor(level=19).compress(data)


def write_zip(
    members: dict[str, bytes] | list[tuple[str, bytes]],
    codec: str = "zstd",
    *,
    sizes: dict[str, int] | None = None,
    raw: dict[str, tuple[bytes, int, int]] | None = None,
) -> bytes:
    """A zip archive of ``members``, each payload compressed by ``codec`` ("stored", "deflate" or "zstd":
    method 93, which Python's zipfile cannot write before 3.14); ``sizes`` overrides a member's declared
    uncompressed size (a lying header); ``raw`` gives a member already compressed, as (payload, CRC-32, size)."""
    import struct
    import zlib

    method = ZIP_METHODS[codec]
    out, central = bytearray(), bytearray()
    items = list(members.items()) if isinstance(members, dict) else list(members)
    for name, data in items:
        if raw and name in raw:
            payload, crc, usize = raw[name]
        else:
            payload, crc, usize = compress_member(data, codec), zlib.crc32(data), len(data)
        usize, fn, offset = (sizes or {}).get(name, usize), name.encode(), len(out)
        head = (method, 0, 0x21, crc, len(payload), usize, len(fn), 0)
        out += struct.pack("<4s5H3I2H", b"PK\x03\x04", 63, 0, *head) + fn
        out += payload
        central += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 63, 63, 0, *head, 0, 0, 0, 0, offset) + fn
    eocd = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, len(items), len(items), len(central), len(out), 0)
    return bytes(out + central + eocd)


def read_zip(data: bytes) -> dict[str, bytes]:
    """The members of a zip archive (zstd members through zstandard), in the archive's order."""
    import zipfile

    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            if info.compress_type != 93:
                out[info.filename] = z.read(info)
                continue
            import zstandard

            z.fp.seek(info.header_offset)
            head = z.fp.read(30)
            z.fp.seek(
                info.header_offset + 30 + int.from_bytes(head[26:28], "little") + int.from_bytes(head[28:30], "little")
            )
            raw = z.fp.read(info.compress_size)
            out[info.filename] = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True).read()
    return out


def mutate(data: bytes, rnd: random.Random, rounds: int | None = None) -> bytes:
    """Apply 1-4 random edits: flip, insert, delete, duplicate or swap lines, insert special
    tokens, truncate."""
    b = bytearray(data)
    for _ in range(rounds or rnd.randint(1, 4)):
        op = rnd.randrange(9)
        pos = rnd.randrange(len(b) + 1)
        if op == 0 and b:
            i = rnd.randrange(len(b))
            b[i] ^= 1 << rnd.randrange(8)
        elif op == 1:
            b[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
        elif op == 2 and b:
            b[pos : pos + rnd.randint(1, 32)] = b""
        elif op == 3:
            b[pos:pos] = rnd.choice(SPECIAL)
        elif op == 4:
            lines = bytes(b).split(b"\n")
            i = rnd.randrange(len(lines))
            lines.insert(i, lines[rnd.randrange(len(lines))])
            b = bytearray(b"\n".join(lines))
        elif op == 5:
            lines = bytes(b).split(b"\n")
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            b = bytearray(b"\n".join(lines))
        elif op == 6:
            b = b[:pos]
        elif op == 7:
            # replace a field (between whitespace) with a special token
            toks = bytes(b).split(b" ") if rnd.random() < 0.5 else bytes(b).split(b"\t")
            i = rnd.randrange(len(toks))
            toks[i] = rnd.choice(SPECIAL)
            b = bytearray((b" " if len(toks) > 1 and b" " in b else b"\t").join(toks))
        else:
            b[pos:pos] = b[pos : pos + rnd.randint(1, 64)]  # duplicate a run
    return bytes(b)


@dataclass(frozen=True)
class Target:
    name: str
    seeds: tuple[bytes, ...]
    suffixes: tuple[str, ...]
    run: Callable[..., Any]
    #: makes a case's files itself (archives built around mutated members, tables of random types),
    #: instead of mutating the bytes of ``seeds`` (which stay the valid files of the seed test)
    remake: Callable[[random.Random], list[bytes]] | None = None


def targets() -> list[Target]:
    import sigfast
    from sigfast import formats

    out = []
    items = _items_seeds()
    for key, data in items.items():
        fmt = key.split("_")[0].split(".")[0]
        suffix = {"tsv": ".tsv", "jsonl": ".jsonl", "npy": ".npy"}[fmt] + (".gz" if key.endswith(".gz") else "")
        out.append(Target(f"read_items:{key}", (data,), (suffix,), lambda p, f=fmt: sigfast.io.read_items(p, f)))
    for fmt in formats.available():
        if fmt not in FORMAT_SEEDS:
            continue
        g, s = FORMAT_SEEDS[fmt]
        if not g:  # system file only (gold columns inside it)
            seeds1 = ((DATA / s).read_bytes(),)
            sfx1 = (Path(s).suffix or ".txt",)
            out.append(Target(f"score:{fmt}", seeds1, sfx1, lambda sp, f=fmt: formats.score(f, None, sp)))
            out.append(Target(f"read:{fmt}", seeds1, sfx1, lambda sp, f=fmt: sigfast.read(None, [sp], format=f)))
            continue
        seeds = ((DATA / g).read_bytes(), (DATA / s).read_bytes())
        sfx = (Path(g).suffix or ".txt", Path(s).suffix or ".txt")
        out.append(Target(f"score:{fmt}", seeds, sfx, lambda gp, sp, f=fmt: formats.score(f, gp, sp)))
        out.append(Target(f"read:{fmt}", seeds, sfx, lambda gp, sp, f=fmt: sigfast.read(gp, [sp], format=f)))
    return out + new_surface_targets() + archive_targets() + records_type_targets()


def _meta_seeds() -> dict[str, tuple[bytes, bytes]]:
    """(human, metric) score tables for the meta-evaluation targets: wide and long layouts."""
    rng = np.random.default_rng(1)
    systems, items = ["sysA", "sysB", "sysC", "sysD"], [f"s{j}" for j in range(6)]
    h = rng.integers(0, 100, (4, 6)).astype(float)
    m = h + rng.normal(0, 20, h.shape)

    def wide(v: np.ndarray, miss: bool) -> bytes:
        rows = ["system\t" + "\t".join(items)]
        for i, s in enumerate(systems):
            cells = ["NaN" if miss and (i + j) % 5 == 0 else f"{v[i, j]:.3f}" for j in range(6)]
            rows.append(s + "\t" + "\t".join(cells))
        return ("\n".join(rows) + "\n").encode()

    def long(v: np.ndarray, sep: str) -> bytes:
        rows = [sep.join(("system", "seg_id", "score"))]
        rows += [sep.join((s, it, f"{v[i, j]:.3f}")) for i, s in enumerate(systems) for j, it in enumerate(items)]
        return ("\n".join(rows) + "\n").encode()

    return {"wide": (wide(h, True), wide(m, False)), "long": (long(h, "\t"), long(m, ","))}


def _metaeval(hp: str, mp: str) -> Any:
    from sigfast import metaeval

    human, metric = metaeval.read_scores(hp), metaeval.read_scores(mp)
    _s, _i, h, m = metaeval.align(human, {"m": metric, "m2": metric})
    m[1] = m[1][::-1] if m.shape[1] > 1 else m[1]
    for level, stat in (("system", "pearson"), ("item", "tau_like_pooled")):
        metaeval.evaluate(h, m, level=level, statistic=stat, n_resamples=20, n_threads=1)
    return metaeval.evaluate(h, m, level="global", statistic="kendall_b", n_resamples=20, test="williams")


def _seeds(ap: str, bp: str) -> Any:
    import sigfast
    from sigfast import seeds

    return sigfast.compare_seeds({"a": seeds.read_scores(ap), "b": seeds.read_scores(bp)}, n_resamples=20)


def _per_item(fmt: str, gold: str | None, system: str, **options: Any) -> Any:
    """The per-item scores of every statistic a format reports (``score --per-item``)."""
    from sigfast import formats

    rep = formats.score(fmt, gold, system, **options)
    return [st.item_scores() for st in rep.stats.values() if st.metric is not None]


#: formats whose per-item scores are fuzzed (the rest: their per-item path is the same code)
PER_ITEM = ("mt", "rouge", "conllu", "evalb", "conllx", "alignment", "conlleval", "pos", "ner")


def new_surface_targets() -> list[Target]:
    """The meta-evaluation tables, seeds files, CoNLL-2012 coreference, per-item output and TER."""
    from sigfast import analysis

    out = []
    for layout, (hb, mb) in _meta_seeds().items():
        sfx = (".tsv", ".tsv") if layout == "wide" else (".tsv", ".csv")
        out.append(Target(f"metaeval:{layout}", (hb, mb), sfx, _metaeval))
    rng = np.random.default_rng(2)
    a = "".join(f"{v:.4f}\n" for v in rng.normal(0.7, 0.02, 8)).encode()
    b = ("score\n" + "".join(f"{v:.4f}\n" for v in rng.normal(0.71, 0.02, 6))).encode()
    out.append(Target("seeds", (a, b), (".txt", ".txt"), _seeds))
    coref = tuple((DATA / "analysis" / f).read_bytes() for f in ("coref_key.conll", "coref_r1.conll", "coref_r2.conll"))
    out.append(Target("coref_diff:conll2012", coref, (".conll",) * 3, lambda k, r1, r2: analysis.coref_diff(k, r1, r2)))
    for fmt in PER_ITEM:
        g, s = FORMAT_SEEDS[fmt]
        if not g:
            seeds1 = ((DATA / s).read_bytes(),)
            out.append(
                Target(f"per_item:{fmt}", seeds1, (Path(s).suffix or ".txt",), lambda sp, f=fmt: _per_item(f, None, sp))
            )
            continue
        seeds = ((DATA / g).read_bytes(), (DATA / s).read_bytes())
        sfx = (Path(g).suffix or ".txt", Path(s).suffix or ".txt")
        out.append(Target(f"per_item:{fmt}", seeds, sfx, lambda gp, sp, f=fmt: _per_item(f, gp, sp)))
    g, s = FORMAT_SEEDS["mt"]
    ter_seeds = ((DATA / g).read_bytes(), (DATA / s).read_bytes())
    for opts in (
        {},
        {"ter_normalized": True, "ter_no_punct": True},
        {"ter_asian_support": True, "ter_case_sensitive": True},
    ):
        name = "ter:mt" + ("" if not opts else "[" + ",".join(k[4:] for k in opts) + "]")
        out.append(
            Target(name, ter_seeds, (".txt", ".txt"), lambda gp, sp, o=opts: _per_item("mt", gp, sp, metric="ter", **o))
        )
    return out


def missing_formats() -> list[str]:
    from sigfast import formats

    return [f for f in formats.available() if f not in FORMAT_SEEDS]


def run_case(target: Target, files: list[bytes], workdir: Path) -> str:
    """Write the (mutated) files and run the target: returns "ok" or the SigfastError class's
    name; any other exception propagates."""
    from sigfast.exceptions import SigfastError

    paths = []
    for k, (data, sfx) in enumerate(zip(files, target.suffixes)):
        p = workdir / f"f{k}{sfx}"
        p.write_bytes(data)
        paths.append(str(p))
    try:
        target.run(*paths)
    except SigfastError as e:
        return type(e).__name__
    return "ok"


def mutated_files(target: Target, rnd: random.Random) -> list[bytes]:
    if target.remake is not None:
        return target.remake(rnd)
    files = list(target.seeds)
    k = len(files) - 1 if len(files) > 1 and rnd.random() < 0.7 else rnd.randrange(len(files))
    files[k] = mutate(files[k], rnd)
    if rnd.random() < 0.1:  # sometimes both
        j = rnd.randrange(len(files))
        files[j] = mutate(files[j], rnd)
    return files


# ----------------------------------------------------------------------------- the archive layer
#: the size limit the archive targets run under: a member or file that expands past it must be refused
ARCHIVE_LIMIT = 1_000_000


def _limited(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` run under ``SIGFAST_MAX_FILE_BYTES=ARCHIVE_LIMIT`` (restored after)."""
    import os

    def run(*paths: str) -> Any:
        old = os.environ.get("SIGFAST_MAX_FILE_BYTES")
        os.environ["SIGFAST_MAX_FILE_BYTES"] = str(ARCHIVE_LIMIT)
        try:
            return fn(*paths)
        finally:
            if old is None:
                del os.environ["SIGFAST_MAX_FILE_BYTES"]
            else:
                os.environ["SIGFAST_MAX_FILE_BYTES"] = old

    return run


def _bomb(data: bytes, rnd: random.Random) -> bytes:
    """``data`` grown past ARCHIVE_LIMIT: padding after a JSON document, or a run of one byte."""
    pad = ARCHIVE_LIMIT + rnd.randint(1, 3 * ARCHIVE_LIMIT)
    return data + (b" " * pad if rnd.random() < 0.5 else bytes([rnd.randrange(256)]) * pad)


def _gzip_layer(inner: bytes, rnd: random.Random) -> bytes:
    """``inner`` gzipped as a harness writes it, or as one meets it: several members, trailing zeros or
    garbage, cut short, or a byte of the compressed stream flipped."""
    r = rnd.random()
    if r < 0.15 and len(inner) > 1:
        k = rnd.randrange(1, len(inner))
        out = gzip.compress(inner[:k]) + gzip.compress(inner[k:])  # two members: one stream
    else:
        out = gzip.compress(inner, compresslevel=rnd.choice([1, 6, 9]))
    r = rnd.random()
    if r < 0.1:
        out += b"\x00" * rnd.randint(1, 16)
    elif r < 0.2:
        out = out[: rnd.randrange(len(out))]
    elif r < 0.3:
        b = bytearray(out)
        b[rnd.randrange(len(b))] ^= 1 << rnd.randrange(8)
        out = bytes(b)
    elif r < 0.35:
        out += bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 16)))
    return out


def _inner(data: bytes, rnd: random.Random) -> bytes:
    r = rnd.random()
    if r < 0.08:
        return _bomb(data, rnd)
    if r < 0.7:
        return mutate(data, rnd)
    return data


def _eval_remake(members: dict[str, bytes], codec: str) -> Callable[[random.Random], list[bytes]]:
    names = list(members)

    def remake(rnd: random.Random) -> list[bytes]:
        m = dict(members)
        for _ in range(rnd.randint(1, 2)):
            k = rnd.choice(names)
            m[k] = _inner(m[k], rnd)
        r = rnd.random()
        if r < 0.05:  # a member left out (the header, a sample, the reductions)
            del m[rnd.choice(names)]
        items = list(m.items())
        if r >= 0.05 and r < 0.1:  # a member twice (zipfile keeps the last)
            k = rnd.choice(names)
            items.append((k, mutate(members[k], rnd)))
        sizes = None
        if rnd.random() < 0.1:  # a header that lies about a member's size
            k = rnd.choice(list(m) or names)
            sizes = {k: rnd.choice([0, 1, len(m.get(k, b"")) // 2 + 1, 2 * len(m.get(k, b"")) + 7, 2**32 - 1])}
        out = write_zip(items, rnd.choice([codec, codec, "stored"]), sizes=sizes)
        if rnd.random() < 0.2:  # the container itself damaged
            out = mutate(out, rnd, rounds=1)
        return [out]

    return remake


def _gzip_remake(data: bytes) -> Callable[[random.Random], list[bytes]]:
    return lambda rnd: [_gzip_layer(_inner(data, rnd), rnd)]


def _have(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def archive_targets() -> list[Target]:
    """Every log reader's archive layer: Inspect's ``.eval`` zip (zstd and deflate members, as Inspect
    writes them; damaged, lying or expanding members and containers) and the gzip of every log format
    (several members, cut short, flipped, expanding past the size limit, which the targets lower to
    ARCHIVE_LIMIT so a bomb is quick). The inner bytes are mutated as the other targets' files are."""
    from sigfast import formats

    out = []
    members = read_zip((DATA / FORMAT_SEEDS["inspect"][1]).read_bytes()) if _have("zstandard") else {}
    for codec in ("zstd", "deflate") if members else ():
        run = _limited(lambda p: formats.score("inspect", None, p))
        seed = write_zip(members, codec)
        out.append(Target(f"archive:inspect.eval[{codec}]", (seed,), (".eval",), run, _eval_remake(members, codec)))
    if members:  # the same log as one JSON document, gzipped
        import json

        log = json.loads(members["header.json"])
        log["samples"] = [json.loads(v) for k, v in members.items() if k.startswith("samples/")]
        if "reductions.json" in members:
            log["reductions"] = json.loads(members["reductions.json"])
        data = json.dumps(log).encode()
        run = _limited(lambda p: formats.score("inspect", None, p))
        out.append(Target("archive:inspect.json.gz", (gzip.compress(data),), (".json.gz",), run, _gzip_remake(data)))
    for fmt in ("lm-eval", "helm", "records"):
        src = DATA / FORMAT_SEEDS[fmt][1]
        data = src.read_bytes()
        sfx = src.suffix + ".gz"
        run = _limited(lambda p, f=fmt: formats.score(f, None, p))
        out.append(Target(f"archive:{fmt}{sfx}", (gzip.compress(data),), (sfx,), run, _gzip_remake(data)))
    return out


# ----------------------------------------------------------------------------- records: CSV and Parquet types
def _cell(rnd: random.Random) -> Any:
    """One value of a random type, as a records file may hold it."""
    import datetime
    import decimal

    return rnd.choice(
        [
            lambda: rnd.randint(0, 1),
            lambda: rnd.random(),
            lambda: rnd.choice([float("nan"), float("inf"), -float("inf"), -0.0, 1e308, 5e-324]),
            lambda: rnd.choice([True, False]),
            lambda: rnd.choice(["1", "0.5", " 0.25 ", "x", "", "nan", "true", "False", "1e400", "0x1", "1_000"]),
            lambda: None,
            lambda: [rnd.random()],
            lambda: {"v": 1},
            lambda: decimal.Decimal(rnd.choice(["0.5", "1", "NaN", "1E+400"])),
            lambda: datetime.datetime(2020, 1, 1 + rnd.randrange(28)),
            lambda: datetime.date(2021, 2, 3),
            lambda: rnd.choice([2**70, -(2**63), 2**64 - 1]),
            lambda: b"\xff\x00",
        ]
    )()


def _records_table(rnd: random.Random) -> tuple[list[str], list[list[Any]]]:
    """A records table: id, score, cluster and sample columns mostly well formed, some cells (or a whole
    column) of another type; sometimes a column missing, named twice or in another order."""
    n = rnd.randint(1, 14)
    cols = {
        "id": [f"q{i}" for i in range(n)],
        "score": [rnd.randint(0, 1) for _ in range(n)],
        "cluster": [f"c{i // 2}" for i in range(n)],
        "sample": [0] * n,
    }
    for _ in range(rnd.randint(1, 4)):
        c = rnd.choice(list(cols))
        if rnd.random() < 0.3:  # the whole column of one other type
            v = _cell(rnd)
            cols[c] = [v] * n
        else:
            cols[c][rnd.randrange(n)] = _cell(rnd)
    head = list(cols)
    if rnd.random() < 0.1:
        head.remove(rnd.choice(head))
    rnd.shuffle(head)
    if rnd.random() < 0.05:
        head.append(rnd.choice(head))  # a column named twice
    return head, [[cols[h][i] for h in head] for i in range(n)]


def _csv_bytes(head: list[str], rows: list[list[Any]], rnd: random.Random, sep: str = ",") -> bytes:
    import csv

    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator=rnd.choice(["\n", "\r\n"]))
    w.writerow(head)
    for r in rows:
        w.writerow(["" if v is None else (v.decode("latin-1") if isinstance(v, bytes) else v) for v in r])
    out = buf.getvalue().encode("utf-8", "surrogatepass")
    return (b"\xef\xbb\xbf" if rnd.random() < 0.1 else b"") + out


def _parquet_bytes(head: list[str], rows: list[list[Any]], rnd: random.Random) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays, names = [], []
    for k, h in enumerate(head):
        values = [r[k] for r in rows]
        try:
            a = pa.array(values)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            a = pa.array([None if v is None else str(v) for v in values])  # mixed: as strings
        if rnd.random() < 0.15 and pa.types.is_string(a.type):
            a = a.dictionary_encode()
        arrays.append(a)
        names.append(h)
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_arrays(arrays, names=names), buf)
    return buf.getvalue()


def records_type_targets() -> list[Target]:
    """The records reader's type handling: CSV/TSV cells and Parquet columns of every type (numbers, NaN and
    infinities, booleans, numeric and other strings, nulls, lists, structs, decimals, timestamps, dates, huge
    integers, bytes, dictionary-encoded strings) in the id, score, cluster and sample fields."""
    import sigfast
    from sigfast import formats

    def score(p: str) -> Any:
        return formats.score("records", None, p)

    def clustered(p: str) -> Any:
        return sigfast.read(None, [p], format="records", cluster="cluster", sample="sample")

    seed_head = ["id", "score", "cluster", "sample"]
    seed_rows = [[f"q{i}", i % 2, f"c{i // 2}", 0] for i in range(6)]
    out = []
    for layout, sfx in (("csv", ".csv"), ("tsv", ".tsv"), ("parquet", ".parquet")):
        if layout == "parquet" and not _have("pyarrow"):
            continue

        def make(head: list[str], rows: list[list[Any]], rnd: random.Random, lay: str = layout) -> bytes:
            if lay == "parquet":
                return _parquet_bytes(head, rows, rnd)
            return _csv_bytes(head, rows, rnd, "\t" if lay == "tsv" else ",")

        seed = make(seed_head, seed_rows, random.Random(0))

        def remake(rnd: random.Random, make: Any = make) -> list[bytes]:
            head, rows = _records_table(rnd)
            data = make(head, rows, rnd)
            return [mutate(data, rnd, rounds=1) if rnd.random() < 0.1 else data]

        out.append(Target(f"records-types:{layout}", (seed,), (sfx,), score, remake))
        out.append(Target(f"records-types:{layout}+cluster", (seed,), (sfx,), clustered, remake))
    return out
