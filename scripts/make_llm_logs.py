"""Make the LLM-harness logs under tests/data/llm/ with the real harnesses, offline.

The task: Fig-QA (1,094 binary-choice items on figurative language) from
``../shared/data/multiple_choice_qa/figqa_explainaboard/fig_qa-dataset.json``,
turned into a local dataset (``figqa.jsonl``) with

* ``id``: ``figqa-0000`` ... ``figqa-1093`` (the item's position in the source file);
* ``pair``: the cluster, ``pair-000`` ... ``pair-546``: Fig-QA is written in
  Winograd-style pairs, two items (two contexts, e.g. "as peaceful as a church" /
  "as peaceful as a battlefield") sharing the same two answer options; the pair is
  the items' shared option list, so every cluster holds exactly 2 items
  (547 clusters, contiguous in the file);
* ``context``, ``options`` (2 strings), ``label`` (the gold option index, 0 or 1),
  ``gold`` ("A" or "B").

Each harness runs in its own virtual environment OUTSIDE the repository (none of
them is a sigfast dependency; CI never runs this script). Run this script with
that environment's Python, naming the harness::

    /work/llmenv/lmeval/bin/python scripts/make_llm_logs.py lm-eval
    /work/llmenv/inspect/bin/python scripts/make_llm_logs.py inspect
    /work/llmenv/helm/bin/python scripts/make_llm_logs.py helm
    /work/llmenv/lighteval/bin/python scripts/make_llm_logs.py lighteval

and the cases beyond the plain logs (each in its own folder of tests/data/llm/, small: 60-90 items)::

    /work/llmenv/inspect/bin/python scripts/make_llm_logs.py inspect-cases              # two reducers; errored samples
    /work/llmenv/lmeval/bin/python scripts/make_llm_logs.py lm-eval-repeats             # repeats: 4
    /work/llmenv/helm/bin/python scripts/make_llm_logs.py helm-trials                   # 3 train trials
    /work/llmenv/lighteval/bin/python scripts/make_llm_logs.py lighteval-reordered      # a re-ordered data set

Each environment: ``python3.11 -m venv /work/llmenv/NAME && /work/llmenv/NAME/bin/pip install PACKAGE==VERSION``
(lm-eval, inspect-ai, crfm-helm, and lighteval with ``'xxhash<4'``).

Harness versions used for the committed logs (pip install NAME==VERSION):

* lm-eval 0.4.13 — the ``dummy`` model (random log-likelihoods from Python's
  ``random``), three runs with ``--seed`` 1, 2, 3 and ``pretrained=dummy-seed{N}``
  as the (ignored) model argument so that the log names each "model", on the task
  ``figqa`` (multiple choice over the local dataset, ``acc``/``acc_norm``); model 1
  also on ``figqa_rev`` (another prompt over the first 100 items, ``--limit 100``):
  a second task's log in the same run folder. The samples files are gzipped
  (``.jsonl.gz``); the results files are as lm-eval wrote them.

* inspect-ai 0.3.285 — ``mockllm/alpha``, ``mockllm/beta``, ``mockllm/gamma`` with
  ``custom_outputs`` (answers drawn per item and epoch from an ability and a shared pair effect),
  2 epochs, scorers ``choice`` and ``model_graded_qa(partial_credit=True)`` graded by
  ``mockllm/grader``; JSON logs with the transcripts dropped (see strip_transcripts), and two
  small ``.eval`` logs as written.
* crfm-helm 0.5.16 — a plugin module (scenario, run spec ``figqa``, mock client) and local model
  deployments ``sigfast/mock-{alpha,beta,gamma}``, plus HELM's own ``simple/model1``.
* lighteval 0.13.0 (with ``xxhash<4``: lighteval 0.13.0 hashes ``str``, which xxhash 4 refuses) —
  the ``dummy`` model (``DummyModelConfig``) with seeds 1, 2, 3 on a custom task over the local
  dataset; the task registry's loaders skip the three built-in task modules that need the network
  at import (see make_lighteval).

Nothing is downloaded at run time: every harness is told to stay offline
(``HF_DATASETS_OFFLINE=1``, ``HF_HUB_OFFLINE=1``). tests/data/llm/SOURCE.md describes the logs.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "data" / "multiple_choice_qa" / "figqa_explainaboard" / "fig_qa-dataset.json"
OUT = ROOT / "tests" / "data" / "llm"
OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "NO_PROXY": "*"}


def dataset() -> list[dict]:
    """The Fig-QA items with ids, clusters (the shared option pair) and gold."""
    raw = json.loads(SOURCE.read_text(encoding="utf-8"))
    pairs: dict[tuple[str, ...], str] = {}
    rows = []
    for i, it in enumerate(raw):
        key = tuple(it["options"])
        pair = pairs.setdefault(key, f"pair-{len(pairs):03d}")
        label = int(it["answers"]["option_index"])
        rows.append(
            {
                "id": f"figqa-{i:04d}",
                "pair": pair,
                "context": it["context"],
                "options": list(it["options"]),
                "label": label,
                "gold": "AB"[label],
            }
        )
    assert len(rows) == 1094 and len(pairs) == 547
    return rows


def write_jsonl(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def run(cmd: list[str], cwd: Path | None = None, env: dict | None = None) -> None:
    print("$", " ".join(str(c) for c in cmd), file=sys.stderr)
    subprocess.run([str(c) for c in cmd], check=True, cwd=cwd, env={**os.environ, **OFFLINE, **(env or {})})


def gzip_to(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    with open(src, "rb") as fi, gzip.GzipFile(dst, "wb", mtime=0) as fo:
        shutil.copyfileobj(fi, fo)


# --------------------------------------------------------------------------------------------
# lm-evaluation-harness

LMEVAL_TASK = """task: {name}
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "{prompt}"
doc_to_choice: "{{{{options}}}}"
doc_to_target: label
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
  - metric: acc_norm
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
"""


def make_lmeval(work: Path) -> None:
    import lm_eval

    data = work / "figqa.jsonl"
    write_jsonl(data, dataset())
    tasks = work / "tasks"
    tasks.mkdir()
    prompts = {
        "figqa": "{{context}}\\nQuestion: What does this mean?\\nAnswer:",
        "figqa_rev": "Sentence: {{context}}\\nMeaning:",
    }
    for name, prompt in prompts.items():
        (tasks / f"{name}.yaml").write_text(LMEVAL_TASK.format(name=name, data=data, prompt=prompt))
    out = OUT / "lm-eval"
    shutil.rmtree(out, ignore_errors=True)
    # three "models" on figqa; model 1 also on figqa_rev (100 items: a log of another task, in the same folder)
    jobs = [(1, ["figqa"], []), (2, ["figqa"], []), (3, ["figqa"], []), (1, ["figqa_rev"], ["--limit", "100"])]
    for k, (seed, names, extra) in enumerate(jobs):
        runs = work / f"runs-{k}"
        run(
            [
                sys.executable, "-m", "lm_eval", "run",
                "--model", "dummy",
                "--model_args", f"pretrained=dummy-seed{seed}",
                "--tasks", *names,
                "--include_path", tasks,
                "--seed", str(seed),
                "--log_samples",
                "--output_path", runs,
                *extra,
            ]
        )  # fmt: skip
        # lm-eval writes OUTPUT/<model_name_sanitized>/results_<time>.json and samples_<task>_<time>.jsonl
        (model_dir,) = [p for p in runs.iterdir() if p.is_dir()]
        dst = out / model_dir.name
        dst.mkdir(parents=True, exist_ok=True)
        for f in sorted(model_dir.iterdir()):
            if f.name.startswith("samples_"):
                gzip_to(f, dst / (f.name + ".gz"))
            else:
                shutil.copy(f, dst / f.name)
    print(f"lm-eval {lm_eval.__version__}: wrote {out}", file=sys.stderr)


#: lm-eval's repeats case: (seed, repeats) of each "model", on the first LMEVAL_REPEAT_ITEMS items
LMEVAL_REPEATS = ((1, 4), (2, 4))
LMEVAL_REPEAT_ITEMS = 60


def make_lmeval_repeats(work: Path) -> None:
    """lm-eval's ``repeats``: the multiple-choice task ``figqa_rep`` (the ``figqa`` prompt) with ``repeats: 4`` in
    its config, on the first 60 items (``--limit 60``), the ``dummy`` model with seeds 1 and 2: each choice's
    log-likelihood is drawn 4 times (``resps``), and lm-eval scores the first (its ``take_first`` filter)."""
    import lm_eval

    data = work / "figqa.jsonl"
    write_jsonl(data, dataset())
    tasks = work / "tasks"
    tasks.mkdir()
    out = OUT / "lm-eval-repeats"
    shutil.rmtree(out, ignore_errors=True)
    for seed, repeats in LMEVAL_REPEATS:
        name = f"figqa_rep{repeats}"
        prompt = "{{context}}\\nQuestion: What does this mean?\\nAnswer:"
        (tasks / f"{name}.yaml").write_text(
            LMEVAL_TASK.format(name=name, data=data, prompt=prompt) + f"repeats: {repeats}\n"
        )
        runs = work / f"runs-rep-{seed}"
        run(
            [
                sys.executable, "-m", "lm_eval", "run",
                "--model", "dummy",
                "--model_args", f"pretrained=dummy-seed{seed}",
                "--tasks", name,
                "--include_path", tasks,
                "--seed", str(seed),
                "--log_samples",
                "--output_path", runs,
                "--limit", str(LMEVAL_REPEAT_ITEMS),
            ]
        )  # fmt: skip
        (model_dir,) = [p for p in runs.iterdir() if p.is_dir()]
        dst = out / model_dir.name
        dst.mkdir(parents=True, exist_ok=True)
        for f in sorted(model_dir.iterdir()):
            if f.name.startswith("samples_"):
                gzip_to(f, dst / (f.name + ".gz"))
            else:
                shutil.copy(f, dst / f.name)
    print(f"lm-eval {lm_eval.__version__}: wrote {out}", file=sys.stderr)


# --------------------------------------------------------------------------------------------
# Inspect

#: the three mock "models": (name, ability); each answers item i of pair c correctly with probability
#: sigmoid(ability + pair_effect[c]) in each epoch, so items of one pair are correlated (a real cluster effect)
INSPECT_MODELS = (("mockllm/alpha", 0.2), ("mockllm/beta", 0.6), ("mockllm/gamma", 1.0))


def _unit(*key: object) -> float:
    """A uniform number in [0, 1) from a key, the same in every run (no global random state)."""
    import hashlib

    h = hashlib.sha256(repr(key).encode()).digest()
    return int.from_bytes(h[:8], "big") / 2**64


def strip_transcripts(path: Path) -> None:
    """Drop each sample's transcript from an Inspect log, through Inspect's own reader and writer.

    A full sample is ~13 kB (events, messages, attachments, the grader's conversation, token
    usage, timings); its id, epoch, input, target, choices, metadata, output completion and
    score values (what a reader of per-sample scores uses) are kept, and so are the header
    with Inspect's results and the per-sample reductions.
    """
    from inspect_ai.log import read_eval_log, write_eval_log

    log = read_eval_log(str(path))
    for s in log.samples or ():
        s.events = []
        s.attachments = {}
        s.messages = []
        s.events_data = None
        s.output.choices = []
        s.output.usage = None
        s.output.time = None
        s.model_usage = {}
        s.role_usage = {}
        s.started_at = s.completed_at = None
        s.total_time = s.working_time = None
        for sc in s.scores.values():
            sc.metadata = None
    write_eval_log(log, str(path))


def _inspect_kit(work: Path):
    """(task builder, answerer, grader) of the Inspect mock evaluations over the local Fig-QA dataset."""
    import math
    import re
    from collections import Counter

    from inspect_ai import Task
    from inspect_ai.dataset import FieldSpec, json_dataset
    from inspect_ai.model import ModelOutput, ModelUsage
    from inspect_ai.scorer import accuracy, choice, model_graded_qa, stderr
    from inspect_ai.solver import multiple_choice

    rows = dataset()
    data = work / "figqa.jsonl"
    write_jsonl(data, rows)
    pair_effect = {r["pair"]: 2.0 * (_unit("pair", r["pair"]) - 0.5) * 2.0 for r in rows}

    def item_of(text: str) -> dict:
        # the multiple_choice prompt holds the item's context and options; a context may be part of another
        # item's context, and two items share one: the longest context whose options are there too
        hits = [r for r in rows if r["context"] in text and all(o in text for o in r["options"])]
        best = max(len(r["context"]) for r in hits)
        (hit,) = [r for r in hits if len(r["context"]) == best]
        return hit

    def _output(model: str, text: str) -> ModelOutput:
        # usage given, so that mockllm does not count tokens with tiktoken (which downloads its tables)
        out = ModelOutput.from_content(model=model, content=text)
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    def answerer(name: str, ability: float):
        seen: Counter = Counter()

        def generate(input, tools, tool_choice, config):
            text = input[-1].text
            r = item_of(text)
            epoch = seen[r["id"]]
            seen[r["id"]] += 1
            p = 1 / (1 + math.exp(-(ability + pair_effect[r["pair"]])))
            right = _unit(name, r["id"], epoch) < p
            letter = r["gold"] if right else "AB"[1 - r["label"]]
            return _output(name, f"ANSWER: {letter}")

        return generate

    def grader(name: str):
        seen: Counter = Counter()

        def generate(input, tools, tool_choice, config):
            text = input[-1].text
            sub = re.search(r"\[Submission\]: (.*?)\n\*\*\*", text, re.S).group(1)
            crit = re.search(r"\[Criterion\]: (.*?)\n\*\*\*", text, re.S).group(1).strip()
            right = sub.strip().endswith(crit)
            seen[text] += 1
            u = _unit("grader", name, text, seen[text])
            grade = ("C" if u < 0.85 else "P") if right else ("I" if u < 0.9 else "P")
            return _output("grader", f"The answer is judged.\nGRADE: {grade}")

        return generate

    def figqa_task(limit: int | None = None, solver=None, epochs=None) -> Task:
        ds = json_dataset(
            str(data),
            FieldSpec(input="context", target="gold", id="id", choices="options", metadata=["pair", "label"]),
            name="figqa",
        )
        return Task(
            dataset=ds[:limit] if limit else ds,
            solver=solver if solver is not None else multiple_choice(),
            scorer=[choice(), model_graded_qa(partial_credit=True)],
            metrics=[accuracy(), stderr(), stderr(cluster="pair")],
            epochs=epochs,
            name="figqa",
        )

    return figqa_task, answerer, grader


def make_inspect(work: Path) -> None:
    import inspect_ai
    from inspect_ai import eval
    from inspect_ai.model import get_model

    figqa_task, answerer, grader = _inspect_kit(work)
    out = OUT / "inspect"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    logs = work / "logs"
    # (model, epochs, items, format): the three models on all items, 2 epochs, as JSON logs whose transcripts are
    # then dropped (see strip_transcripts) and gzipped; alpha and beta on the first 12 items as .eval logs kept
    # exactly as Inspect wrote them (zstd-compressed zip members, events and all)
    jobs = [(m, 2, None, "json") for m in INSPECT_MODELS] + [(m, 2, 12, "eval") for m in INSPECT_MODELS[:2]]
    for (name, ability), epochs, limit, fmt in jobs:
        model = get_model(name, custom_outputs=answerer(name, ability))
        grade = get_model("mockllm/grader", custom_outputs=grader(name))
        (log,) = eval(
            figqa_task(limit),
            model=model,
            model_roles={"grader": grade},
            epochs=epochs,
            log_dir=str(logs),
            log_format=fmt,
            display="none",
            max_connections=1,
        )
        assert log.status == "success", log.error
        src = Path(log.location)
        short = name.split("/")[-1]
        if fmt == "eval":
            shutil.copy(src, out / f"figqa_{short}_{limit}items.eval")
        else:
            strip_transcripts(src)
            gzip_to(src, out / f"figqa_{short}.json.gz")
        print(f"{name}: {[(s.name, s.metrics['accuracy'].value) for s in log.results.scores]}", file=sys.stderr)
    print(f"inspect-ai {inspect_ai.__version__}: wrote {out}", file=sys.stderr)


#: the items of the Inspect cases (the first 60: 30 pairs); which (item, epoch) of each model's errored log fails
INSPECT_CASE_ITEMS = 60
INSPECT_ERRORS = {
    # figqa-0000 epoch 1 is the log's first sample; figqa-0007 fails in every epoch of alpha (alpha lacks the item,
    # as Inspect leaves it out); figqa-0031 in every epoch of both
    "mockllm/alpha": {("figqa-0000", 1), ("figqa-0013", 2), ("figqa-0022", 3), ("figqa-0040", 1), ("figqa-0040", 2)}
    | {("figqa-0007", e) for e in (1, 2, 3)}
    | {("figqa-0031", e) for e in (1, 2, 3)},
    "mockllm/beta": {("figqa-0000", 1), ("figqa-0005", 3), ("figqa-0058", 2)} | {("figqa-0031", e) for e in (1, 2, 3)},
}


def make_inspect_cases(work: Path) -> None:
    """Inspect's cases beyond the plain logs: two epoch reducers, and errored samples.

    * ``figqa_{alpha,beta}_reducers.json.gz``: 3 epochs reduced by ``Epochs(3, ["mean", "pass_at_2"])`` (the
      header then reports each score once per reducer, and the log keeps both reductions);
    * ``figqa_{alpha,beta}_errored.json.gz``: 3 epochs with ``fail_on_error=False``: the samples of
      INSPECT_ERRORS raise in a solver before the model is asked, so Inspect logs them with their error and no
      score, and its header leaves them out.

    Both on the first 60 items, transcripts dropped (strip_transcripts), gzipped.
    """
    import inspect_ai
    from inspect_ai import Epochs, eval
    from inspect_ai.model import get_model
    from inspect_ai.solver import multiple_choice, solver

    figqa_task, answerer, grader = _inspect_kit(work)

    @solver
    def fail_on(errors: frozenset):
        async def solve(state, generate):
            if (str(state.sample_id), state.epoch) in errors:
                raise RuntimeError(f"mock failure of sample {state.sample_id}, epoch {state.epoch}")
            return state

        return solve

    out = OUT / "inspect-cases"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    logs = work / "logs-cases"
    for case in ("reducers", "errored"):
        for name, ability in INSPECT_MODELS[:2]:
            model = get_model(name, custom_outputs=answerer(name, ability))
            grade = get_model("mockllm/grader", custom_outputs=grader(name))
            if case == "reducers":
                task = figqa_task(INSPECT_CASE_ITEMS, epochs=Epochs(3, ["mean", "pass_at_2"]))
                extra = {}
            else:
                task = figqa_task(
                    INSPECT_CASE_ITEMS, solver=[fail_on(frozenset(INSPECT_ERRORS[name])), multiple_choice()], epochs=3
                )
                extra = {"fail_on_error": False}
            (log,) = eval(
                task,
                model=model,
                model_roles={"grader": grade},
                log_dir=str(logs / case),
                log_format="json",
                display="none",
                max_connections=1,
                **extra,
            )
            assert log.status == "success", log.error
            src = Path(log.location)
            strip_transcripts(src)
            short = name.split("/")[-1]
            gzip_to(src, out / f"figqa_{short}_{case}.json.gz")
            scores = [(s.name, s.reducer, s.metrics["accuracy"].value) for s in log.results.scores]
            print(f"{case} {name}: {scores}", file=sys.stderr)
    print(f"inspect-ai {inspect_ai.__version__}: wrote {out}", file=sys.stderr)


# --------------------------------------------------------------------------------------------
# HELM

#: a HELM plugin (loaded with --plugins): the Fig-QA scenario over the local dataset, its run spec, and a mock
#: client that answers like the Inspect mock models (ability + shared pair effect)
HELM_PLUGIN = """
import hashlib, json, math
from typing import List

from helm.benchmark.adaptation.common_adapter_specs import get_multiple_choice_joint_adapter_spec
from helm.benchmark.metrics.common_metric_specs import get_exact_match_metric_specs
from helm.benchmark.run_spec import RunSpec, run_spec_function
from helm.benchmark.scenarios.scenario import (
    CORRECT_TAG, TEST_SPLIT, TRAIN_SPLIT, Input, Instance, Output, Reference, Scenario, ScenarioSpec,
)
from helm.clients.client import CachingClient
from helm.common.request import GeneratedOutput, Request, RequestResult, Token

DATA = {data!r}


def _rows():
    with open(DATA) as fh:
        return [json.loads(line) for line in fh]


class FigQAScenario(Scenario):
    name = "figqa"
    description = "Fig-QA, 1,094 binary-choice items on figurative language, in 547 pairs"
    tags = ["question answering"]

    def get_instances(self, output_path: str) -> List[Instance]:
        out = []
        for r in _rows():
            refs = [Reference(Output(text=o), tags=[CORRECT_TAG] if k == r["label"] else [])
                    for k, o in enumerate(r["options"])]
            out.append(Instance(input=Input(text=r["context"]), references=refs, split=TEST_SPLIT, id=r["id"],
                                extra_data={{"pair": r["pair"]}}))
        return out


class FigQAFewShotScenario(Scenario):
    # the first 90 items as the test split, items 100-199 as the train split (HELM's in-context examples, drawn
    # anew in each train trial)

    name = "figqa_fewshot"
    description = "Fig-QA, 90 test items with in-context examples from 100 train items"
    tags = ["question answering"]

    def get_instances(self, output_path: str) -> List[Instance]:
        out = []
        rows = _rows()
        for split, part in ((TEST_SPLIT, rows[:90]), (TRAIN_SPLIT, rows[100:200])):
            for r in part:
                refs = [Reference(Output(text=o), tags=[CORRECT_TAG] if k == r["label"] else [])
                        for k, o in enumerate(r["options"])]
                out.append(Instance(input=Input(text=r["context"]), references=refs, split=split, id=r["id"],
                                    extra_data={{"pair": r["pair"]}}))
        return out


@run_spec_function("figqa_fewshot")
def get_figqa_fewshot_spec() -> RunSpec:
    adapter_spec = get_multiple_choice_joint_adapter_spec(
        instructions="Pick the meaning of the sentence.", input_noun="Sentence", output_noun="Answer",
        num_outputs=1, max_train_instances=2,
    )
    return RunSpec(
        name="figqa_fewshot",
        scenario_spec=ScenarioSpec(class_name="sigfast_helm_plugin.FigQAFewShotScenario"),
        adapter_spec=adapter_spec,
        metric_specs=get_exact_match_metric_specs(),
        groups=["figqa_fewshot"],
    )


@run_spec_function("figqa")
def get_figqa_spec() -> RunSpec:
    adapter_spec = get_multiple_choice_joint_adapter_spec(
        instructions="Pick the meaning of the sentence.", input_noun="Sentence", output_noun="Answer",
        num_outputs=1, max_train_instances=0,
    )
    return RunSpec(
        name="figqa",
        scenario_spec=ScenarioSpec(class_name="sigfast_helm_plugin.FigQAScenario"),
        adapter_spec=adapter_spec,
        metric_specs=get_exact_match_metric_specs(),
        groups=["figqa"],
    )


def _unit(*key):
    return int.from_bytes(hashlib.sha256(repr(key).encode()).digest()[:8], "big") / 2**64


class MockClient(CachingClient):
    \"\"\"Answers item i of pair c right with probability sigmoid(ability + effect of c), the same effects as the
    Inspect mock models.\"\"\"

    def __init__(self, cache_config, ability: float = 0.0, name: str = "mock"):
        super().__init__(cache_config=cache_config)
        self.ability, self.name = float(ability), name
        self.rows = _rows()

    def make_request(self, request: Request) -> RequestResult:
        # the item asked about: the prompt's last sentence (earlier ones are in-context examples) and its options;
        # each train trial (request.random: None in trial 0, then "1", "2", ...) answers anew
        tail = request.prompt[request.prompt.rindex("Sentence: "):]
        hits = [r for r in self.rows if tail.startswith("Sentence: " + r["context"] + "\\n")
                and all(o in tail for o in r["options"])]
        (r,) = hits
        effect = 2.0 * (_unit("pair", r["pair"]) - 0.5) * 2.0
        p = 1 / (1 + math.exp(-(self.ability + effect)))
        right = _unit(self.name, r["id"], request.random or 0) < p
        letter = "AB"[r["label"] if right else 1 - r["label"]]
        out = GeneratedOutput(text=letter, logprob=0.0, tokens=[Token(text=letter, logprob=0.0)])
        return RequestResult(success=True, cached=False, request_time=0.0, completions=[out], embedding=[])
"""

#: (deployment, ability) of the mock models; HELM's own simple/model1 (it echoes the prompt's last word) too
HELM_MODELS = (("sigfast/mock-alpha", 0.2), ("sigfast/mock-beta", 0.6), ("sigfast/mock-gamma", 1.0))


def _helm_env(work: Path) -> tuple[Path, Path]:
    """(plugins folder, prod_env folder): the plugin module and the mock models' deployments."""
    rows = dataset()
    data = work / "figqa.jsonl"
    write_jsonl(data, rows)
    plugins = work / "plugins"
    plugins.mkdir()
    (plugins / "sigfast_helm_plugin.py").write_text(HELM_PLUGIN.format(data=str(data)))
    prod = work / "prod_env"
    prod.mkdir()
    deployments = ["model_deployments:"]
    metadata = ["models:"]
    for name, ability in HELM_MODELS:
        deployments += [
            f"  - name: {name}",
            f"    model_name: {name}",
            "    tokenizer_name: simple/tokenizer1",
            "    max_sequence_length: 2048",
            "    client_spec:",
            '      class_name: "sigfast_helm_plugin.MockClient"',
            f"      args: {{ability: {ability}, name: {name}}}",
        ]
        metadata += [
            f"  - name: {name}",
            f"    display_name: {name}",
            "    description: a mock model of scripts/make_llm_logs.py",
            "    creator_organization_name: sigfast",
            "    access: open",
            "    release_date: 2025-01-01",
            "    tags: [TEXT_MODEL_TAG, FULL_FUNCTIONALITY_TEXT_MODEL_TAG]",
        ]
    (prod / "model_deployments.yaml").write_text("\n".join(deployments) + "\n")
    (prod / "model_metadata.yaml").write_text("\n".join(metadata) + "\n")
    return plugins, prod


def _helm_copy_runs(runs: Path, prefix: str, out: Path) -> None:
    for d in sorted(p for p in runs.iterdir() if p.is_dir() and p.name.startswith(prefix)):
        dst = out / d.name.replace(":", "_").replace("=", "-").replace("/", "_")
        dst.mkdir(parents=True)
        for name in ("run_spec.json", "scenario.json", "stats.json"):
            shutil.copy(d / name, dst / name)
        for name in ("per_instance_stats.json", "scenario_state.json"):  # the large ones, gzipped
            gzip_to(d / name, dst / (name + ".gz"))


def make_helm(work: Path) -> None:
    import importlib.metadata

    plugins, prod = _helm_env(work)
    models = [m for m, _ in HELM_MODELS] + ["simple/model1"]
    out = OUT / "helm"
    shutil.rmtree(out, ignore_errors=True)
    run(
        [
            Path(sys.executable).parent / "helm-run",
            "--plugins", "sigfast_helm_plugin",
            "--run-entries", *[f"figqa:model={m}" for m in models],
            "--suite", "figqa",
            "--max-eval-instances", "1094",
            "--local-path", prod,
            "--output-path", work / "benchmark_output",
        ],
        cwd=work,
        env={"PYTHONPATH": str(plugins)},
    )  # fmt: skip
    _helm_copy_runs(work / "benchmark_output" / "runs" / "figqa", "figqa", out)
    print(f"crfm-helm {importlib.metadata.version('crfm-helm')}: wrote {out}", file=sys.stderr)


def make_helm_trials(work: Path) -> None:
    """HELM with 3 train trials: the run spec ``figqa_fewshot`` (the first 90 items as the test split, 2 in-context
    examples drawn from items 100-199, anew in each trial) with ``--num-train-trials 3``, the three mock models;
    each trial the mock client answers anew (its draw keyed by the request's ``random``, HELM's trial seed)."""
    import importlib.metadata

    plugins, prod = _helm_env(work)
    out = OUT / "helm-trials"
    shutil.rmtree(out, ignore_errors=True)
    run(
        [
            Path(sys.executable).parent / "helm-run",
            "--plugins", "sigfast_helm_plugin",
            "--run-entries", *[f"figqa_fewshot:model={m}" for m, _ in HELM_MODELS],
            "--suite", "figqa_trials",
            "--max-eval-instances", "90",
            "--num-train-trials", "3",
            "--local-path", prod,
            "--output-path", work / "benchmark_output",
        ],
        cwd=work,
        env={"PYTHONPATH": str(plugins)},
    )  # fmt: skip
    _helm_copy_runs(work / "benchmark_output" / "runs" / "figqa_trials", "figqa_fewshot", out)
    print(f"crfm-helm {importlib.metadata.version('crfm-helm')}: wrote {out}", file=sys.stderr)


# --------------------------------------------------------------------------------------------
# lighteval

LIGHTEVAL_TASKS = """
from lighteval.metrics.metrics import Metrics
from lighteval.tasks.lighteval_task import LightevalTaskConfig
from lighteval.tasks.requests import Doc


def figqa_prompt(line, task_name: str = None):
    return Doc(
        task_name=task_name,
        query=f"{{line['context']}}\\nQuestion: What does this mean?\\nAnswer:",
        choices=[f" {{o}}" for o in line["options"]],
        gold_index=int(line["label"]),
        specific={{"id": line["id"], "pair": line["pair"]}},
    )


figqa = LightevalTaskConfig(
    name="figqa",
    prompt_function=figqa_prompt,
    hf_repo={repo!r},
    hf_subset="default",
    hf_avail_splits=["test"],
    evaluation_splits=["test"],
    few_shots_split=None,
    few_shots_select=None,
    metrics=[Metrics.loglikelihood_acc],
    version=1,
)

TASKS_TABLE = [figqa]
"""


def _lighteval_offline() -> list[str]:
    """Let lighteval 0.13.0 build its task registry offline; returns the list it fills with the skipped modules.

    lighteval 0.13.0 imports every built-in task module whenever it builds its task registry, and some of them
    reach the network at import (tasks/tiny_benchmarks.py downloads tinyBenchmarks.pkl; mt_bench/main.py asks
    the Hugging Face Hub for its judge model). Offline, those imports fail and take the registry down with them:
    the registry's two loaders are replaced by the same loops that skip (and report) a module that fails to
    import. Our task comes from the custom-tasks file; nothing else of lighteval is changed."""
    import importlib

    from lighteval.tasks.registry import Registry

    skipped: list[str] = []

    def load(names: list[str]) -> dict:
        configs = {}
        for name in names:
            try:
                module = importlib.import_module(name)
            except Exception as e:
                skipped.append(f"{name} ({type(e).__name__})")
                continue
            configs.update(Registry._extract_configs(module))
        return configs

    Registry._load_from_files = staticmethod(lambda files, prefix: load([f"{prefix}.{f.stem}" for f in files]))
    Registry._load_from_subdirs = staticmethod(
        lambda dirs: load([f"lighteval.tasks.tasks.{d.name}.main" for d in dirs])
    )
    return skipped


def make_lighteval(work: Path) -> None:
    import importlib.metadata

    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.dummy.dummy_model import DummyModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters

    skipped = _lighteval_offline()
    repo = work / "figqa"
    repo.mkdir()
    write_jsonl(repo / "test.jsonl", dataset())
    tasks = work / "figqa_tasks.py"
    tasks.write_text(LIGHTEVAL_TASKS.format(repo=str(repo)))
    out = OUT / "lighteval"
    shutil.rmtree(out, ignore_errors=True)
    runs = work / "out"
    for seed in (1, 2, 3):
        tracker = EvaluationTracker(output_dir=str(runs), save_details=True)
        params = PipelineParameters(launcher_type=ParallelismManager.NONE, custom_tasks_directory=str(tasks))
        pipeline = Pipeline(
            tasks="figqa|0",
            pipeline_parameters=params,
            evaluation_tracker=tracker,
            model_config=DummyModelConfig(model_name=f"dummy-seed{seed}", seed=seed),
        )
        pipeline.evaluate()
        pipeline.save_and_push_results()
    print(f"lighteval task modules skipped (they need the network at import): {', '.join(sorted(set(skipped)))}",
          file=sys.stderr)  # fmt: skip
    # OUT/results/<model>/results_<date>.json and OUT/details/<model>/<date>/details_<task>_<date>.parquet
    shutil.copytree(runs, out)
    print(f"lighteval {importlib.metadata.version('lighteval')}: wrote {out}", file=sys.stderr)


#: lighteval's re-ordered case: the first LIGHTEVAL_REORDER_ITEMS items, model 1 in the data set's order, model 2
#: on the same items in another order (so lighteval's positional doc.id names other documents)
LIGHTEVAL_REORDER_ITEMS = 60


def make_lighteval_reordered(work: Path) -> None:
    """lighteval on a re-ordered data set: the ``dummy`` model with seed 1 on the first 60 items in the data set's
    order, with seed 2 on the same 60 items shuffled (a fixed permutation): the same task (``figqa|0``, the
    same custom task over another copy of the data), whose ``doc.id`` is the row's position, so the two runs'
    ``doc.id`` name different items; ``doc.specific.id`` holds the data set's own id."""
    import importlib.metadata

    from lighteval.logging.evaluation_tracker import EvaluationTracker
    from lighteval.models.dummy.dummy_model import DummyModelConfig
    from lighteval.pipeline import ParallelismManager, Pipeline, PipelineParameters

    skipped = _lighteval_offline()
    rows = dataset()[:LIGHTEVAL_REORDER_ITEMS]
    shuffled = sorted(rows, key=lambda r: _unit("order", r["id"]))
    out = OUT / "lighteval-reordered"
    shutil.rmtree(out, ignore_errors=True)
    runs = work / "out"
    for seed, data in ((1, rows), (2, shuffled)):
        repo = work / f"figqa-{seed}"
        repo.mkdir()
        write_jsonl(repo / "test.jsonl", data)
        tasks = work / f"figqa_tasks_{seed}.py"
        tasks.write_text(LIGHTEVAL_TASKS.format(repo=str(repo)))
        tracker = EvaluationTracker(output_dir=str(runs), save_details=True)
        params = PipelineParameters(launcher_type=ParallelismManager.NONE, custom_tasks_directory=str(tasks))
        pipeline = Pipeline(
            tasks="figqa|0",
            pipeline_parameters=params,
            evaluation_tracker=tracker,
            model_config=DummyModelConfig(model_name=f"dummy-seed{seed}", seed=seed),
        )
        pipeline.evaluate()
        pipeline.save_and_push_results()
    print(f"lighteval task modules skipped (they need the network at import): {', '.join(sorted(set(skipped)))}",
          file=sys.stderr)  # fmt: skip
    shutil.copytree(runs, out)
    print(f"lighteval {importlib.metadata.version('lighteval')}: wrote {out}", file=sys.stderr)


# --------------------------------------------------------------------------------------------


MAKERS = {
    "lm-eval": make_lmeval,
    "inspect": make_inspect,
    "helm": make_helm,
    "lighteval": make_lighteval,
    "inspect-cases": make_inspect_cases,
    "lm-eval-repeats": make_lmeval_repeats,
    "lighteval-reordered": make_lighteval_reordered,
    "helm-trials": make_helm_trials,
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tool", choices=sorted(MAKERS))
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix=f"sigfast-{args.tool}-"))
    try:
        MAKERS[args.tool](work)
    finally:
        if args.keep:
            print(f"work folder kept: {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
