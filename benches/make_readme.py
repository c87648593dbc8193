"""Write the README's Speed section from one run's JSON (``benches/run_all.py``).

    python benches/make_readme.py                    # benches/results.json -> README.md's speed block
    python benches/make_readme.py --check            # exit 1 if the block is not what the JSON gives
    python benches/make_readme.py --stdout --results benches/results-quick.json --allow-quick

It rewrites only the lines between ``<!-- speed:start -->`` and ``<!-- speed:end -->``. Every
figure in that block is read from the one JSON; nothing is typed by hand. Without a JSON the
block says that no full run is recorded. A quick or partial run (``--quick``, ``--only``) is
refused unless ``--allow-quick``, and is then labelled as such.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
START, END = "<!-- speed:start -->", "<!-- speed:end -->"
RUN = "python benches/run_all.py && python benches/make_readme.py"


def fmt_ratio(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}×"
    if x >= 10:
        return f"{x:.1f}×"
    return f"{x:.2f}×"


def fmt_time(s: float) -> str:
    if s >= 10:
        return f"{s:.1f} s"
    if s >= 1:
        return f"{s:.2f} s"
    return f"{s * 1e3:.3g} ms"


def power10(v: Any) -> str:
    if isinstance(v, int) and v >= 1000:
        e = len(str(v)) - 1
        if v == 10**e:
            return f"10^{e}"
        return f"{v:,}"
    return str(v)


def sizes(params: dict[str, Any]) -> str:
    out = []
    for key, label in (("n", "n"), ("items", "n"), ("B", "B")):
        if key in params and not (key == "items" and "n" in params):
            out.append(f"{label} = {power10(params[key])}")
    return ", ".join(out)


def scope_cell(rec: dict[str, Any], r: dict[str, Any] | None) -> str:
    if r is None:
        return "—"
    cell = f"**{fmt_ratio(r['best'])}**"
    extra = []
    if r["scope"] == "all cores":
        tp = rec["timings"][r["peer"]]
        if tp.get("config") and tp["threads"] != 1:
            extra.append(f"{tp['who']}: {tp['config']}")
    if extra:
        cell += f" ({'; '.join(extra)})"
    return cell


def group(rec: dict[str, Any], kind: str) -> dict[str, dict[str, dict[str, Any]]]:
    """{ratio name: {scope: ratio}} for ratios of ``kind``."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for r in rec.get("ratios", []):
        if r["kind"] == kind:
            out.setdefault(r["name"], {})[r["scope"]] = r
    return out


#: the draw-and-count floor's target: nanoseconds per drawn index on one core (random stream 2)
DRAW_NS_TARGET = 0.4


def draw_floor_line(res: dict[str, Any]) -> str | None:
    """The floor itself, per drawn index: the F1 bootstrap's ``floor_1``/``floor_all`` times over B × n."""
    rec = res["benchmarks"].get("bootstrap_f1")
    if not rec or "floor_1" not in rec["timings"]:
        return None
    draws = rec["params"]["n"] * rec["params"]["B"]
    one = rec["timings"]["floor_1"]["best_s"] / draws * 1e9
    met = "met" if one <= DRAW_NS_TARGET else "**not met**"
    size = f"{power10(rec['params']['B'])} resamples of n = {rec['params']['n']:,}"
    line = f"The floor itself ({size}): {one:.3f} ns per drawn index on one core"
    if "floor_all" in rec["timings"]:
        every = rec["timings"]["floor_all"]["best_s"] / draws * 1e9
        line += f", {every:.3f} ns on all {rec['timings']['floor_all']['threads']} cores"
    return line + f" (target at most {DRAW_NS_TARGET:g} ns per core: {met})."


def load_note(rec: dict[str, Any], cores: int) -> str:
    """The load a benchmark's figures were measured at (the 1-minute load average before and after it),
    in words: on a machine of few cores, a load of 1 is one core busy with other work."""
    before, after = rec.get("loadavg_before"), rec.get("loadavg_after")
    if not before or not after:
        return ""
    busy = max(before[0], after[0])
    words = "an idle machine" if busy < 0.25 else f"about {busy:.1f} of the {cores} cores busy with other work"
    if before[0] == after[0]:
        return f"load average {before[0]}, {words}"
    return f"load average {before[0]} before and {after[0]} after, {words}"


def render(res: dict[str, Any] | None) -> str:
    if res is None:
        return (
            "No full run of `benches/run_all.py` is recorded yet, so this section gives no figures. "
            f"Run `{RUN}` on a quiet machine to fill it: every figure here then comes from that one run."
        )
    m, s = res["machine"], res["sigfast"]
    date = res["date_utc"].replace("T", " ").replace("Z", " UTC")
    la_b, la_a = m.get("loadavg_before"), m.get("loadavg_after")
    load = f", load average {la_b[0]} before and {la_a[0]} after" if la_b and la_a else ""
    lines = []
    if res.get("quick") or res.get("partial"):
        lines.append(
            "**This block was generated from a quick or partial run (tiny sizes or a subset): its figures "
            "are not ones to quote.**"
        )
        lines.append("")
    lines.append(
        f"Every figure in this section comes from one run of `benches/run_all.py` on {m['cpu_model']} "
        f"({m['cores']} cores{load}), {date}, with sigfast {s['version']} ({s.get('build_profile')} build) at "
        f"commit `{s.get('commit_short')}`; `benches/results.json` holds every repeat's time, and "
        "`benches/README.md` says what each benchmark compares and why its peer is the fairest one. "
        f"**Per core** is sigfast on one thread against the peer on one thread; **all cores** is sigfast on all "
        f"{m['cores']} threads against the peer's best single-process configuration (named where it uses more "
        "than one thread). A ratio is the peer's best time over sigfast's best time "
        f"(best of {res['repeat']} repeats; {res['slow_repeat']} for peers that take tens of seconds a run; "
        "medians are in the JSON)."
    )
    lines += ["", "| benchmark | compared with | per core | all cores |", "|---|---|---|---|"]
    whole, floors, scaling = [], [], []
    for rec in res["benchmarks"].values():
        label = rec["title"]
        sz = sizes(rec.get("params", {}))
        if sz and sz not in label:
            label += f" ({sz})"
        shown = label
        for rname, by_scope in group(rec, "speedup").items():
            if "per core" in by_scope or "all cores" in by_scope:
                lines.append(
                    f"| {shown} | {rname} | {scope_cell(rec, by_scope.get('per core'))} | "
                    f"{scope_cell(rec, by_scope.get('all cores'))} |"
                )
                shown = ""
            if "whole process" in by_scope:
                whole.append((label, rname, by_scope["whole process"], rec))
        for rname, by_scope in group(rec, "of_floor").items():
            floors.append((label, rname, by_scope, rec))
        for rname, by_scope in group(rec, "scaling").items():
            scaling.append((label, rname, by_scope, rec))
    if floors:
        lines += [
            "",
            "Against a floor: the time to draw and count the same B × n resample indices with the same generator "
            "and nothing else (`_native.draw_count_floor`), which any exact item bootstrap must spend; for all "
            "pairs, the larger of that and one numpy/BLAS product of the resample counts (B × n) by the "
            "statistics (n × columns), which any method summing every resample's statistics must match. The ratio "
            "is sigfast's time over the floor's; the target (at most 2×, or as shown) can be missed.",
            "",
            "| benchmark | ratio | per core | all cores |",
            "|---|---|---|---|",
        ]
        for label, rname, by_scope, _rec in floors:
            cells = []
            for scope in ("per core", "all cores"):
                r = by_scope.get(scope)
                if r is None:
                    cells.append("—")
                    continue
                met = "" if "met" not in r else (" (met)" if r["met"] else " (**not met**)")
                if "met" in r and r.get("target") != 2.0:
                    met = met[:-1] + f", target ≤ {r['target']:g}×)"
                cells.append(f"{fmt_ratio(r['best'])} the floor{met}")
            lines.append(f"| {label} | {rname} | {cells[0]} | {cells[1]} |")
        per_draw = draw_floor_line(res)
        if per_draw:
            lines += ["", per_draw]
    if whole:
        lines += [
            "",
            "Whole process on both sides (start-up and imports counted for sigfast too: one process per file, as "
            "the reference scorer runs):",
            "",
        ]
        for label, _rname, r, rec in whole:
            p, q = rec["timings"][r["peer"]], rec["timings"][r["sigfast"]]
            met = "" if "met" not in r else (" (met)" if r["met"] else " (**not met**)")
            target = "" if "target" not in r else f", target at least {fmt_ratio(r['target'])}{met}"
            lines.append(
                f"- {label}: {p['who']} {fmt_time(p['best_s'])}, `{q['what']}` {fmt_time(q['best_s'])}: "
                f"**{fmt_ratio(r['best'])}**{target}."
            )
    limits = [(rec, lim) for rec in res["benchmarks"].values() for lim in rec.get("limits", [])]
    if limits:
        loads = {load_note(rec, m["cores"]) for rec, _ in limits} - {""}
        measured = f"; measured at {loads.pop()}" if len(loads) == 1 else ""
        lines += [
            "",
            f"Time a user waits, whole process (best and median of the repeats{measured}; against a limit):",
            "",
        ]
        for rec, lim in limits:
            q = rec["timings"][lim["timing"]]
            met = "met" if lim["met"] else "**not met**"
            at = "" if measured else f"; measured at {load_note(rec, m['cores'])}"
            lines.append(
                f"- `{q['what']}`: **{fmt_time(q['best_s'])}**, median {fmt_time(q['median_s'])} (at most "
                f"{fmt_time(lim['max_s'])}: {met}{at})."
            )
        scale = [rec["timings"][k] for rec, _ in limits[:1] for k in ("python", "numpy") if k in rec["timings"]]
        if scale:
            lines.append("- For scale: " + ", ".join(f"`{q['what']}` {fmt_time(q['best_s'])}" for q in scale) + ".")
    if scaling:
        lines += ["", "Scaling:", ""]
        for label, rname, by_scope, _rec in scaling:
            parts = [f"{scope} {fmt_ratio(r['best'])}" for scope, r in by_scope.items()]
            note = next((r.get("note") for r in by_scope.values() if r.get("note")), None)
            lines.append(f"- {label}, {rname}: {', '.join(parts)}" + (f" ({note})." if note else "."))
    mem = [(rec["title"], rec["memory"], rec) for rec in res["benchmarks"].values() if rec.get("memory")]
    for title, mm, rec in mem:
        vals = ", ".join(f"B = {power10(int(b))}: {kib / 1024:.0f} MiB" for b, kib in mm["peak_rss_kib_by_B"].items())
        lines += ["", f"Memory ({title}): {mm['what']}: {vals}."]
        big = mm.get("big_case_peak_rss_kib")
        if big:
            p = rec["params"]["big_case"]
            t = rec["timings"]
            lines[-1] += (
                f" A leaderboard of {p['systems']:,} systems × {p['items']:,} items ({p['data']}), "
                f"B = {power10(int(p['B']))}: {fmt_time(t['big_sigfast_1']['best_s'])} on one thread "
                f"({big['sigfast_1'] / 1024:.0f} MiB peak), {fmt_time(t['big_sigfast_all']['best_s'])} on all cores "
                f"({big['sigfast_all'] / 1024:.0f} MiB peak)."
            )
    if res.get("skipped"):
        lines += ["", "Not measured in this run: " + "; ".join(f"`{k}` ({v})" for k, v in res["skipped"].items()) + "."]
    if res.get("errors"):
        lines += ["", "Failed in this run: " + ", ".join(f"`{k}`" for k in res["errors"]) + "."]
    return "\n".join(lines)


def splice(readme: str, block: str) -> str:
    if START not in readme or END not in readme:
        raise SystemExit(f"README has no {START} … {END} markers")
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{block}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(HERE / "results.json"))
    ap.add_argument("--readme", default=str(HERE.parent / "README.md"))
    ap.add_argument("--check", action="store_true", help="exit 1 if the README block differs from the JSON's")
    ap.add_argument("--stdout", action="store_true", help="print the block instead of writing the README")
    ap.add_argument("--allow-quick", action="store_true", help="accept a --quick or --only run (labelled)")
    a = ap.parse_args(argv)
    path = Path(a.results)
    res = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    if res is not None and (res.get("quick") or res.get("partial")) and not a.allow_quick:
        print(f"{path} is from a quick or partial run; pass --allow-quick to use it anyway", file=sys.stderr)
        return 2
    block = render(res)
    if a.stdout:
        print(block)
        return 0
    readme = Path(a.readme)
    old = readme.read_text(encoding="utf-8")
    new = splice(old, block)
    if a.check:
        if new != old:
            print(f"{readme}'s speed block is stale: run python benches/make_readme.py", file=sys.stderr)
            return 1
        return 0
    if new != old:
        readme.write_text(new, encoding="utf-8")
        print(f"updated {readme}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
