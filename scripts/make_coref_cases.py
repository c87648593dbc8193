"""Write the hand-made coreference key/response pairs of tests/data/coref/cases/ (see its SOURCE.md).

Each case is a key and a response in the CoNLL-2012 layout (``#begin document (NAME); part NNN``,
tab-separated ``document, part, word number, word, POS, coreference`` lines, a blank line after each
sentence, ``#end document``); entities are given below as lists of token spans (first, last) counted
over the document (no span crosses a sentence boundary). Run ``python scripts/make_coref_cases.py`` to rewrite them.
"""

from __future__ import annotations

from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "coref" / "cases"

WORDS = "the cat sat on a mat and it saw her dog which barked at them all day long".split()


def field(t: int, ents: list[list[tuple[int, int]]], glue: str = "|") -> str:
    parts = []
    for e, ms in enumerate(ents):
        for a, b in ms:
            if a == t and b > t:
                parts.append((0, -b, f"({e}"))
    for e, ms in enumerate(ents):
        for a, b in ms:
            if a == b == t:
                parts.append((1, 0, f"({e})"))
    for e, ms in enumerate(ents):
        for a, b in ms:
            if b == t and a < t:
                parts.append((2, -a, f"{e})"))
    return glue.join(p for *_, p in sorted(parts)) or "-"


def doc(name: str, part: int, sents: list[int], ents: list[list[tuple[int, int]]], glue: str = "|") -> str:
    out = [f"#begin document ({name}); part {part:03d}\n"]
    t = 0
    for n in sents:
        for i in range(n):
            w = WORDS[t % len(WORDS)]
            out.append(f"{name}\t{part}\t{i}\t{w}\tNN\t{field(t, ents, glue)}\n")
            t += 1
        out.append("\n")
    out.append("#end document\n")
    return "".join(out)


S = [9, 11, 8]  # three sentences, 28 tokens
KEY = [[(0, 1), (7, 7), (14, 15)], [(4, 5), (12, 12)], [(9, 10), (20, 22), (25, 25)], [(17, 17)]]

CASES: dict[str, tuple[list[str], list[str]]] = {}


def one(name: str, key: list[list[tuple[int, int]]], rsp: list[list[tuple[int, int]]], glue: str = "|") -> None:
    CASES[name] = ([doc(name, 0, S, key, glue)], [doc(name, 0, S, rsp, glue)])


one("perfect", KEY, KEY)
# singletons: key singletons (17) and (3); the response keeps one, drops one, adds two of its own
one(
    "singletons",
    [*KEY, [(3, 3)]],
    [[(0, 1), (7, 7), (14, 15)], [(4, 5), (12, 12)], [(9, 10), (20, 22), (25, 25)], [(17, 17)], [(19, 19)], [(26, 27)]],
)
# nested mentions: an entity inside another's span, the same entity nested in itself, a span shared by two
one(
    "nested",
    [[(0, 3), (1, 1), (7, 7)], [(9, 13), (9, 10), (12, 12)], [(20, 24), (21, 22)], [(2, 3), (26, 26)]],
    [[(0, 3), (7, 7)], [(1, 1), (2, 3)], [(9, 13), (9, 10)], [(12, 12), (26, 26)], [(20, 24), (21, 22)]],
)
# a key entity split in two response entities, another split in three
one(
    "split",
    [[(0, 1), (7, 7), (14, 15), (18, 18), (23, 23)], [(9, 10), (20, 22), (25, 25), (27, 27)]],
    [[(0, 1), (7, 7)], [(14, 15), (18, 18), (23, 23)], [(9, 10)], [(20, 22), (25, 25)], [(27, 27)]],
)
# two key entities merged, and a third merged into them
one("merge", KEY, [[(0, 1), (7, 7), (14, 15), (4, 5), (12, 12)], [(9, 10), (20, 22), (25, 25), (17, 17)]])
# spurious mentions in key entities, and spurious entities
one("spurious", KEY, [[*KEY[0], (2, 2)], KEY[1], [*KEY[2], (26, 27)], KEY[3], [(18, 19), (23, 24)], [(3, 3), (6, 6)]])
# missing mentions and a missing entity
one("missing", KEY, [[(0, 1), (14, 15)], [(9, 10), (20, 22), (25, 25)]])
# an empty response: no coreference at all
one("empty", KEY, [])
# an empty key: the response invents everything
one("invented", [], KEY)
# the same entities written without '|' between the parts of a field, as OntoGUM writes them
one(
    "glued",
    [[(0, 3), (1, 1), (7, 7)], [(1, 3), (9, 9)], *KEY[1:]],
    [[(0, 3), (1, 1)], [(1, 3), (7, 7), (9, 9)], *KEY[1:]],
    "",
)
# repeated response mentions: (7,7) twice in one entity and once more in another (the scorer drops them)
one("repeated", KEY, [[(0, 1), (7, 7), (7, 7), (14, 15)], [(4, 5), (12, 12), (7, 7)], KEY[2], KEY[3]])

# several documents and parts
MULTI_KEY = [
    ("a", 0, KEY),
    ("a", 1, [[(0, 0), (5, 6), (11, 11)], [(2, 3), (20, 20)]]),
    ("b/c/01", 0, [[(1, 1), (3, 3)], [(10, 11), (15, 16), (24, 24)], [(18, 18)]]),
    ("b/c/01", 1, []),
    ("d", 0, [[(0, 2), (10, 10), (13, 13), (22, 23)]]),
]
MULTI_RSP = [
    ("a", 0, [[(0, 1), (7, 7), (14, 15), (4, 5)], [(12, 12), (17, 17)], [(9, 10), (20, 22)]]),
    ("a", 1, [[(0, 0), (5, 6)], [(2, 3), (20, 20), (11, 11)]]),
    ("b/c/01", 0, [[(1, 1), (3, 3), (18, 18)], [(10, 11), (15, 16)], [(24, 25), (26, 26)]]),
    ("b/c/01", 1, [[(4, 4), (6, 6)]]),
    ("d", 0, []),
]
CASES["multidoc"] = (
    [doc(n, p, S, e) for n, p, e in MULTI_KEY],
    [doc(n, p, S, e) for n, p, e in MULTI_RSP],
)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (key, rsp) in CASES.items():
        (OUT / f"{name}.key").write_text("".join(key), encoding="utf-8")
        (OUT / f"{name}.response").write_text("".join(rsp), encoding="utf-8")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
