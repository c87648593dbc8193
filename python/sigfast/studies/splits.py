"""Seeded random train/dev/test splits and resampled training sets.

Gorman & Bedrick (2019) recommend many random splits over one standard split;
Berg-Kirkpatrick et al. (2012, §3.2.1) make many comparable systems by
training on training sets drawn with replacement. Both need corpus files cut
into units and written back byte for byte, with a manifest that lets anyone
check the result.

Units
    ``"sentence"``: a blank-line-separated block (CoNLL-U, CoNLL-X/2007/2008/
    2009, CoNLL-2000 chunks, NER, POS files); comment lines stay with the
    sentence they precede, blank lines after a sentence stay with it, blank
    lines before the first sentence belong to it. ``"line"``: one item per
    line (MT segments, one tree per line, ...). ``"document"``: CoNLL-U
    documents, each starting at a sentence whose comments hold ``# newdoc``.

Each unit is written exactly as it was read, except that a last unit without
its closing newline (or, for sentences, its closing blank line) gets one, so
the written files always concatenate cleanly. Hashes (SHA-256) are taken of
units in this written form, so the multiset of unit hashes of the parts of a
split equals that of the corpus exactly when the split partitions it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import FormatError, InputError
from ..formats._base import SPLIT_UNITS, read_file_bytes
from ..results.base import Key, Result
from ._common import read_json

__all__ = [
    "UNITS",
    "Corpus",
    "ResampleResult",
    "SplitResult",
    "random_splits",
    "read_units",
    "resample_train",
    "split_sizes",
    "verify_splits",
]

UNITS = SPLIT_UNITS

MANIFEST_VERSION = 1


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def _open_bytes(path: str | os.PathLike[str]) -> bytes:
    """A corpus file's bytes, read as every format reader reads files (gzip, size limit); a byte-order
    mark is kept, so that units are written back byte for byte."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    data, _ = read_file_bytes(p, "corpus", keep_bom=True)
    return data


def _is_blank(line: bytes) -> bool:
    return line.strip(b" \t\r\n") == b""


@dataclass(frozen=True)
class Corpus:
    """A file cut into units: ``units[i]`` are the bytes of unit i as they will be written."""

    path: str
    unit: str
    units: tuple[bytes, ...]
    file_sha256: str
    normalised_end: bool = False

    @property
    def n_units(self) -> int:
        return len(self.units)

    def hashes(self) -> list[str]:
        return [_sha(u) for u in self.units]


def _line_units(data: bytes, path: str) -> tuple[list[bytes], bool]:
    lines = data.splitlines(keepends=True)
    fixed = False
    if lines and not lines[-1].endswith((b"\n", b"\r")):
        lines[-1] = lines[-1] + b"\n"
        fixed = True
    return lines, fixed


def _sentence_blocks(data: bytes, path: str) -> tuple[list[bytes], list[int], bool]:
    """Blocks of non-blank lines with their trailing blank lines; also each block's first line number."""
    lines = data.splitlines(keepends=True)
    blocks: list[list[bytes]] = []
    starts: list[int] = []
    lead: list[bytes] = []
    in_blank = True
    for no, line in enumerate(lines, 1):
        if _is_blank(line):
            if blocks:
                blocks[-1].append(line)
            else:
                lead.append(line)
            in_blank = True
        else:
            if in_blank or not blocks:
                blocks.append(lead + [line])
                lead = []
                starts.append(no)
            else:
                blocks[-1].append(line)
            in_blank = False
    fixed = False
    if blocks:
        last = blocks[-1]
        if not last[-1].endswith((b"\n", b"\r")):
            last[-1] = last[-1] + b"\n"
            fixed = True
        if not _is_blank(last[-1]):
            last.append(b"\n")
            fixed = True
    return [b"".join(b) for b in blocks], starts, fixed


def read_units(path: str | os.PathLike[str], unit: str = "sentence") -> Corpus:
    """Cut a corpus file (plain or gzip) into units; see the module docstring."""
    if unit not in UNITS:
        raise InputError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
    p = str(path)
    data = _open_bytes(p)
    if not data.strip():
        raise FormatError("the file is empty (no units to split); give a non-empty corpus", path=p)
    if unit == "line":
        units, fixed = _line_units(data, p)
        blank = [i for i, u in enumerate(units) if _is_blank(u)]
        if blank and unit == "line":
            # blank lines are kept as items (e.g. an empty MT segment); they are hashed like any other
            pass
        return Corpus(p, unit, tuple(units), _sha(data), fixed)
    blocks, starts, fixed = _sentence_blocks(data, p)
    if unit == "sentence":
        return Corpus(p, unit, tuple(blocks), _sha(data), fixed)
    # documents: a new one starts at each sentence with a '# newdoc' comment
    docs: list[list[bytes]] = []
    for b, start in zip(blocks, starts):
        comments = [ln for ln in b.splitlines() if ln.startswith(b"#")]
        newdoc = any(c.lstrip(b"# \t").startswith(b"newdoc") for c in comments)
        if newdoc or not docs:
            if not newdoc:
                raise FormatError(
                    "document-level splits need '# newdoc' comments; the first sentence has none "
                    "(use unit='sentence', or mark documents with '# newdoc id = ...')",
                    path=p,
                    line=start,
                )
            docs.append([b])
        else:
            docs[-1].append(b)
    return Corpus(p, unit, tuple(b"".join(d) for d in docs), _sha(data), fixed)


def _unit_for(fmt: str | None, unit: str | None) -> str:
    """``unit``, or else the unit the format declares (``FormatSpec.split_unit``), or else sentences."""
    if unit is not None:
        if unit not in UNITS:
            raise InputError(f"unit must be one of {', '.join(UNITS)}, got {unit!r}")
        return unit
    if fmt is None:
        return "sentence"
    from ..formats import spec

    s = spec(fmt)
    if s.split_unit is None:
        raise InputError(
            f"format {s.name!r} declares no unit its files can be cut into; give unit= one of {', '.join(UNITS)} "
            "if its lines or blank-line blocks are units"
        )
    return s.split_unit


def _read_parallel(paths: Sequence[str | os.PathLike[str]], unit: str) -> list[Corpus]:
    if not paths:
        raise InputError("no corpus files given")
    corpora = [read_units(p, unit) for p in paths]
    n = corpora[0].n_units
    for c in corpora[1:]:
        if c.n_units != n:
            raise InputError(
                f"parallel files must have the same number of {unit}s: {corpora[0].path} has {n}, "
                f"{c.path} has {c.n_units}; split files that are aligned {unit} by {unit}"
            )
    return corpora


def split_sizes(n: int, ratios: Sequence[float]) -> list[int]:
    """Part sizes for ``n`` units: round(n·r) for every part but the first, which takes the rest.

    With 80/10/10 and n = 2077: dev = test = round(207.7) = 208, train = 1661.
    """
    r = [float(x) for x in ratios]
    if len(r) < 2 or any(not x >= 0 for x in r) or not abs(sum(r) - 1) < 1e-9:
        raise InputError(f"ratios must be two or more non-negative numbers summing to 1, got {list(ratios)}")
    tail = [int(np.floor(n * x + 0.5)) for x in r[1:]]
    first = n - sum(tail)
    if first < 0:
        raise InputError(f"{n} units are too few for ratios {r}")
    return [first] + tail


def _stem(path: str) -> tuple[str, str]:
    name = os.path.basename(path)
    if name.endswith(".gz"):
        name = name[:-3]
    base, dot, ext = name.rpartition(".")
    if not dot or not base:
        return name, ""
    return base, "." + ext


def _write_part(corpus: Corpus, idx: np.ndarray, path: Path) -> dict[str, Any]:
    data = b"".join(corpus.units[i] for i in idx)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {"file": str(path), "sha256": _sha(data), "n_units": int(len(idx))}


def _sub_seed(seed: int, *k: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(seed), *map(int, k)]))


#: The two kinds of manifest :class:`SplitResult` holds (its ``kind`` field): random splits, or training sets
#: drawn with replacement.
_RESAMPLED = "sigfast-resample-train"


@dataclass(frozen=True)
class SplitResult(Result):
    """Units of a corpus drawn into parts, as a manifest: K random splits (:func:`random_splits`:
    ``splits[k]["indices"][part]`` are corpus unit indices in file order of that part), or training sets
    drawn with replacement (:func:`resample_train`: ``samples[k]["indices"]``). One class for both
    (``ResampleResult`` is this class); the manifest's ``kind`` says which."""

    manifest: dict[str, Any]
    manifest_path: str | None = None

    _keys = (Key("*", "manifest"), "signature")

    @property
    def resampled(self) -> bool:
        """Training sets drawn with replacement (:func:`resample_train`), not splits."""
        return self.manifest.get("kind") == _RESAMPLED

    @property
    def signature(self) -> str:
        m = self.manifest
        if self.resampled:
            return _manifest_signature("resample_train", m, sizes=m["sizes"], n_samples=m["n_samples"])
        return _manifest_signature(
            "split", m, n_splits=m["n_splits"], ratios=m["ratios"], parts=m["parts"], keep_order=m["keep_order"]
        )

    def rows(self) -> list[dict[str, Any]]:
        """Tidy records, one per (split, part): its size; or one per drawn training set: size, sample,
        distinct units; with the signature."""
        if self.resampled:
            return [
                {"size": s["size"], "sample": s["sample"], "n_distinct": s["n_distinct"], "signature": self.signature}
                for s in self.manifest["samples"]
            ]
        return [
            {"split": k, "part": part, "size": len(idx), "signature": self.signature}
            for k, sp in enumerate(self.manifest["splits"])
            for part, idx in sp["indices"].items()
        ]

    @property
    def splits(self) -> list[dict[str, Any]]:
        return self.manifest["splits"]

    @property
    def samples(self) -> list[dict[str, Any]]:
        return self.manifest["samples"]

    def indices(self, k: int, part: str = "test") -> np.ndarray:
        """Split ``k``'s ``part``, or (drawn training sets) training set ``k``: corpus unit indices."""
        where = self.samples[k] if self.resampled else self.splits[k]
        idx = where["indices"] if self.resampled else where["indices"][part]
        return np.asarray(idx, dtype=np.int64)

    @property
    def headline(self) -> str:
        """One line: the splits (or training sets), the corpus and the seed."""
        m = self.manifest
        if self.resampled:
            return (
                f"{len(m['samples'])} training sets drawn with replacement from {m['n_units']} {m['unit']}s "
                f"(sizes {m['sizes']}, {m['n_samples']} per size, seed {m['seed']})"
            )
        sizes = m["splits"][0]["sizes"] if m["splits"] else {}
        return (
            f"{m['n_splits']} random {'/'.join(m['parts'])} splits of {m['n_units']} {m['unit']}s "
            f"(seed {m['seed']}, sizes {sizes}) from {', '.join(c['path'] for c in m['corpus'])}"
        )

    def tables(self) -> list[Any]:
        """The tidy rows as one table, titled as before the two kinds shared a class."""
        t = super().tables()[0]
        return [replace(t, title="ResampleResult" if self.resampled else "SplitResult")]

    def _text(self) -> str:
        return f"{self.headline}\n  {self.signature}\n"


#: Training sets drawn with replacement: the same class (``resample_train`` returns one).
ResampleResult = SplitResult


def random_splits(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str] | None = None,
    *,
    n_splits: int = 20,
    ratios: Sequence[float] = (0.8, 0.1, 0.1),
    parts: Sequence[str] = ("train", "dev", "test"),
    seed: int = 0,
    unit: str | None = None,
    format: str | None = None,
    keep_order: bool = True,
) -> SplitResult:
    """K seeded random splits of a corpus (Gorman & Bedrick 2019), written with a manifest.

    ``paths`` is one corpus file or several parallel ones (e.g. source and
    reference, or gold and aligned system outputs) with the same number of
    units: all are cut by the same indices. Split k permutes the units with a
    generator seeded by (seed, k); part sizes come from :func:`split_sizes`.
    With ``keep_order`` each part keeps corpus order (otherwise the permuted
    order). Files go to ``out_dir/split{k:02d}/{stem}.{part}{ext}``, the
    manifest to ``out_dir/manifest.json``; with ``out_dir=None`` nothing is
    written and the manifest holds indices and unit hashes only.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    u = _unit_for(format, unit)
    if isinstance(n_splits, bool) or not isinstance(n_splits, (int, np.integer)) or n_splits < 1:
        raise InputError(f"n_splits must be a positive integer, got {n_splits!r}")
    if len(parts) != len(ratios) or len(set(parts)) != len(parts):
        raise InputError(f"give one distinct part name per ratio: parts={list(parts)}, ratios={list(ratios)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    corpora = _read_parallel(list(paths), u)
    n = corpora[0].n_units
    sizes = split_sizes(n, ratios)
    if min(sizes) == 0:
        hint = " (a file with one item per line needs unit='line')" if u == "sentence" and n < 3 else ""
        raise InputError(
            f"{n} {u}s give an empty part with ratios {list(ratios)} (sizes {sizes}); "
            f"use a larger corpus or other ratios{hint}"
        )
    out = Path(out_dir) if out_dir is not None else None
    names = [_stem(c.path) for c in corpora]
    if len(set(names)) != len(names):
        raise InputError("parallel files must have distinct names: " + ", ".join(c.path for c in corpora))
    splits = []
    bounds = np.cumsum([0] + sizes)
    for k in range(int(n_splits)):
        perm = _sub_seed(seed, k).permutation(n)
        idx = {p: perm[bounds[i] : bounds[i + 1]] for i, p in enumerate(parts)}
        if keep_order:
            idx = {p: np.sort(v) for p, v in idx.items()}
        entry: dict[str, Any] = {
            "split": k,
            "seed": [int(seed), k],
            "sizes": {p: int(len(v)) for p, v in idx.items()},
            "indices": {p: [int(i) for i in v] for p, v in idx.items()},
            "files": {},
        }
        if out is not None:
            for c, (base, ext) in zip(corpora, names):
                entry["files"][c.path] = {
                    p: _write_part(c, v, out / f"split{k:02d}" / f"{base}.{p}{ext}") for p, v in idx.items()
                }
        splits.append(entry)
    manifest = {
        "kind": "sigfast-splits",
        "version": MANIFEST_VERSION,
        "seed": int(seed),
        "n_splits": int(n_splits),
        "ratios": [float(r) for r in ratios],
        "parts": list(parts),
        "unit": u,
        "n_units": n,
        "keep_order": bool(keep_order),
        "rng": "numpy PCG64 via SeedSequence([seed, k]); Generator.permutation",
        "corpus": [
            {
                "path": c.path,
                "sha256": c.file_sha256,
                "n_units": c.n_units,
                "units_sha256": _multiset_digest(c.hashes()),
                "normalised_end": c.normalised_end,
            }
            for c in corpora
        ],
        "splits": splits,
    }
    mpath = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        mpath = str(out / "manifest.json")
        Path(mpath).write_text(json.dumps(manifest, indent=1) + "\n")
    return SplitResult(manifest, mpath)


def _multiset_digest(hashes: Sequence[str]) -> str:
    """An order-free digest of unit hashes: SHA-256 of the sorted hex digests."""
    return _sha("\n".join(sorted(hashes)).encode())


def verify_splits(manifest: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """Check written splits against the corpus: files unchanged, and each split an exact partition.

    Re-reads the corpus and every part file; checks each file's SHA-256,
    that each part file is byte for byte the corpus units at its recorded
    indices, and that for every split the multiset of unit hashes over its
    parts equals the corpus's (nothing lost, nothing duplicated). Raises
    :class:`~sigfast.exceptions.InputError` on the first difference; returns
    a summary.
    """
    if not isinstance(manifest, Mapping):
        manifest = read_json(manifest, "the split manifest")
    if not isinstance(manifest, Mapping) or manifest.get("kind") != "sigfast-splits":
        raise InputError("not a sigfast split manifest (kind != 'sigfast-splits')")
    unit = manifest["unit"]
    checked = 0
    for c in manifest["corpus"]:
        corpus = read_units(c["path"], unit)
        if corpus.file_sha256 != c["sha256"]:
            raise InputError(f"{c['path']}: the corpus changed since the split (SHA-256 differs)")
        unit_hashes = corpus.hashes()
        want = Counter(unit_hashes)
        for s in manifest["splits"]:
            files = s["files"].get(c["path"])
            if not files:
                raise InputError(f"split {s['split']}: no files recorded for {c['path']}")
            got: Counter[str] = Counter()
            for part, info in files.items():
                data = _open_bytes(info["file"])
                if _sha(data) != info["sha256"]:
                    raise InputError(f"{info['file']}: file changed since it was written (SHA-256 differs)")
                idx = s["indices"][part]
                if data != b"".join(corpus.units[i] for i in idx):
                    raise InputError(f"{info['file']}: content differs from the corpus units at the recorded indices")
                got.update(unit_hashes[i] for i in idx)
            if got != want:
                lost = sum((want - got).values())
                dup = sum((got - want).values())
                raise InputError(
                    f"split {s['split']} of {c['path']} is not a partition: {lost} units lost, {dup} extra"
                )
            checked += 1
    return {"ok": True, "splits_checked": checked, "n_units": manifest["n_units"], "unit": unit}


# --------------------------------------------------------------------------- training-set resampling
def _manifest_signature(test: str, m: dict[str, Any], **fields: Any) -> str:
    """A splitting or resampling manifest's signature: the unit, the seed, the settings and a hash of the
    corpus files' contents (their SHA-256s, not their paths)."""
    from ..results.signature import build

    return build(
        test,
        variant=m["unit"],
        items=m["n_units"],
        seed=m["seed"],
        data=[c.get("sha256") for c in m["corpus"]],
        **fields,
    )


def resample_train(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str] | None = None,
    *,
    sizes: Sequence[int],
    n_samples: int = 1,
    seed: int = 0,
    unit: str | None = None,
    format: str | None = None,
) -> ResampleResult:
    """Training sets drawn with replacement at the given sizes (Berg-Kirkpatrick et al. 2012, §3.2.1).

    Sample r of size m draws m unit indices uniformly with replacement, from
    a generator seeded by (seed, m, r); units are written in draw order to
    ``out_dir/size{m}/sample{r:02d}/{stem}{ext}``. The manifest records the
    indices, each file's SHA-256 and the number of distinct units.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    u = _unit_for(format, unit)
    sizes = [int(s) for s in sizes]
    if not sizes or any(s < 1 for s in sizes):
        raise InputError(f"sizes must be positive integers, got {sizes}")
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise InputError(f"n_samples must be a positive integer, got {n_samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InputError(f"seed must be a non-negative integer, got {seed!r}")
    corpora = _read_parallel(list(paths), u)
    n = corpora[0].n_units
    out = Path(out_dir) if out_dir is not None else None
    names = [_stem(c.path) for c in corpora]
    samples = []
    for m in sizes:
        for r in range(int(n_samples)):
            idx = _sub_seed(seed, m, r).integers(0, n, m)
            entry: dict[str, Any] = {
                "size": m,
                "sample": r,
                "seed": [int(seed), m, r],
                "n_distinct": int(np.unique(idx).size),
                "indices": [int(i) for i in idx],
                "files": {},
            }
            if out is not None:
                for c, (base, ext) in zip(corpora, names):
                    entry["files"][c.path] = _write_part(c, idx, out / f"size{m}" / f"sample{r:02d}" / f"{base}{ext}")
            samples.append(entry)
    manifest = {
        "kind": _RESAMPLED,
        "version": MANIFEST_VERSION,
        "seed": int(seed),
        "sizes": sizes,
        "n_samples": int(n_samples),
        "unit": u,
        "n_units": n,
        "rng": "numpy PCG64 via SeedSequence([seed, size, sample]); Generator.integers(0, n, size)",
        "corpus": [{"path": c.path, "sha256": c.file_sha256, "n_units": c.n_units} for c in corpora],
        "samples": samples,
    }
    mpath = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        mpath = str(out / "manifest.json")
        Path(mpath).write_text(json.dumps(manifest, indent=1) + "\n")
    return ResampleResult(manifest, mpath)


def verify_resample(manifest: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """Check resampled training files: each is exactly the corpus units at its recorded indices."""
    if not isinstance(manifest, Mapping):
        manifest = read_json(manifest, "the resample-train manifest")
    if not isinstance(manifest, Mapping) or manifest.get("kind") != _RESAMPLED:
        raise InputError("not a sigfast resample-train manifest")
    unit = manifest["unit"]
    n = 0
    for c in manifest["corpus"]:
        corpus = read_units(c["path"], unit)
        if corpus.file_sha256 != c["sha256"]:
            raise InputError(f"{c['path']}: the corpus changed since resampling (SHA-256 differs)")
        for s in manifest["samples"]:
            info = s["files"][c["path"]]
            data = _open_bytes(info["file"])
            if _sha(data) != info["sha256"]:
                raise InputError(f"{info['file']}: file changed since it was written (SHA-256 differs)")
            expect = b"".join(corpus.units[i] for i in s["indices"])
            if data != expect:
                raise InputError(f"{info['file']}: content differs from the corpus units at the recorded indices")
            n += 1
    return {"ok": True, "files_checked": n}


__all__ += ["verify_resample"]
