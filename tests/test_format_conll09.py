"""CoNLL-2008 (eval08.pl) and CoNLL-2009 (eval09.pl) scoring: parity and bad input.

Expected texts below were produced by running the reference scorers on the
fixtures in tests/data/dependency/ (perl 5.36.0):

* eval08.pl v1.8 from andre-martins/TurboParser @ 5ae9a15a16f7388ebd264cbbcc81f00463d3169a,
  scripts_srl/eval08.pl (md5 3611a68bfd6c3a8925af0685cfd90cb0; numeric sense comparison):
  ``perl eval08.pl -q [FLAGS] -g tests/data/dependency/GOLD -s tests/data/dependency/SYSTEM``
* eval09.pl v0.4 from swabhs/joint-lstm-parser @ 465e352c390dd544f6584f34e3554adc6e7972d5,
  eval09.pl (md5 92ba88903f64a2f34d5d9031507e376f), same command line.

Each key is (gold file, system file, the flags given after ``-q``); the value is
the script's whole stdout (for ``nopred.sys.conll08`` eval08.pl then dies with
"Illegal division by zero", exit status 255).

Fixtures (hand-written): ``basic.*`` have punctuation tokens, a sentence made only
of punctuation, several roots, a label differing only in case, predicate senses
``01``/``1``/``001``/``02``, ``XX``/``YY`` (equal for eval08's numeric ``==``, not
for eval09), a system predicate on a token that is no gold predicate and a missed
gold predicate, wrong / missing / extra arguments, CoNLL-2009 multi-argument
cells ``A1|A0`` vs ``A0|A1|A0``, CoNLL-2008 ``SU`` predicates and arguments (skipped
unless ``-u``); ``nofinal.sys.*`` are ``basic.sys.*`` without the final blank line
(the scripts then drop the last token from the semantic scores and, for eval08,
score no empty pseudo-sentence); ``nopred.sys.*`` have no predicate at all.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from _warns import expect_warnings
from sigfast import metrics
from sigfast.exceptions import FormatError, InputError
from sigfast.formats import score
from sigfast.formats.conll09 import _perl_num, _same_sense_09
from sigfast.formats.dependency import DependencyWarning

DATA = Path(__file__).resolve().parent / "data" / "dependency"

EXPECTED_EVAL08 = {
    ("basic.gold.conll08", "basic.sys.conll08", ""): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (8 + 4) / (12 + 6) * 100 = 66.67 %\n"
        "  Labeled recall:             (8 + 4) / (11 + 6) * 100 = 70.59 %\n"
        "  Labeled F1:                 68.57 \n"
        "  Unlabeled precision:        (10 + 5) / (12 + 6) * 100 = 83.33 %\n"
        "  Unlabeled recall:           (10 + 5) / (11 + 6) * 100 = 88.24 %\n"
        "  Unlabeled F1:               85.71 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 6 * 100 = 33.33 %\n"
        "  Proposition F1:             33.33 \n"
        "  Exact semantic match:       2 / 6 * 100 = 33.33 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    69.05 %\n"
        "  Labeled macro recall:       71.01 %\n"
        "  Labeled macro F1:           70.01 %\n"
        "  Unlabeled macro precision:  82.14 %\n"
        "  Unlabeled macro recall:     84.59 %\n"
        "  Unlabeled macro F1:         83.35 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 8 + 4) / (21 + 12 + 6) * 100 = 69.23 %\n"
        "  Labeled micro recall:       (15 + 8 + 4) / (21 + 11 + 6) * 100 = 71.05 %\n"
        "  Labeled micro F1:           70.13 \n"
        "  Unlabeled micro precision:  (17 + 10 + 5) / (21 + 12 + 6) * 100 = 82.05 %\n"
        "  Unlabeled micro recall:     (17 + 10 + 5) / (21 + 11 + 6) * 100 = 84.21 %\n"
        "  Unlabeled micro F1:         83.12 \n"
        "\n"
        "  Note: skipped SU predicates and arguments\n"
        "  \tSkipped 1 SU predicates and 1 SU arguments in gold output\n"
        "  \tSkipped 1 SU predicates and 0 SU arguments is system output\n"
        "\n"
    ),
    ("basic.gold.conll08", "basic.sys.conll08", "-p"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 13 / 16 * 100 = 81.25 %\n"
        "  Unlabeled attachment score: 15 / 16 * 100 = 93.75 %\n"
        "  Label accuracy score:       13 / 16 * 100 = 81.25 %\n"
        "  Exact syntactic match:      3 / 5 * 100 = 60.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (8 + 4) / (12 + 6) * 100 = 66.67 %\n"
        "  Labeled recall:             (8 + 4) / (11 + 6) * 100 = 70.59 %\n"
        "  Labeled F1:                 68.57 \n"
        "  Unlabeled precision:        (10 + 5) / (12 + 6) * 100 = 83.33 %\n"
        "  Unlabeled recall:           (10 + 5) / (11 + 6) * 100 = 88.24 %\n"
        "  Unlabeled F1:               85.71 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 6 * 100 = 33.33 %\n"
        "  Proposition F1:             33.33 \n"
        "  Exact semantic match:       2 / 6 * 100 = 33.33 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    73.96 %\n"
        "  Labeled macro recall:       75.92 %\n"
        "  Labeled macro F1:           74.93 %\n"
        "  Unlabeled macro precision:  88.54 %\n"
        "  Unlabeled macro recall:     90.99 %\n"
        "  Unlabeled macro F1:         89.75 %\n"
        "  Exact overall match:        1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (13 + 8 + 4) / (16 + 12 + 6) * 100 = 73.53 %\n"
        "  Labeled micro recall:       (13 + 8 + 4) / (16 + 11 + 6) * 100 = 75.76 %\n"
        "  Labeled micro F1:           74.63 \n"
        "  Unlabeled micro precision:  (15 + 10 + 5) / (16 + 12 + 6) * 100 = 88.24 %\n"
        "  Unlabeled micro recall:     (15 + 10 + 5) / (16 + 11 + 6) * 100 = 90.91 %\n"
        "  Unlabeled micro F1:         89.55 \n"
        "\n"
        "  Note: skipped SU predicates and arguments\n"
        "  \tSkipped 1 SU predicates and 1 SU arguments in gold output\n"
        "  \tSkipped 1 SU predicates and 0 SU arguments is system output\n"
        "\n"
    ),
    ("basic.gold.conll08", "basic.sys.conll08", "-u"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (8 + 5) / (13 + 7) * 100 = 65.00 %\n"
        "  Labeled recall:             (8 + 5) / (13 + 7) * 100 = 65.00 %\n"
        "  Labeled F1:                 65.00 \n"
        "  Unlabeled precision:        (10 + 6) / (13 + 7) * 100 = 80.00 %\n"
        "  Unlabeled recall:           (10 + 6) / (13 + 7) * 100 = 80.00 %\n"
        "  Unlabeled F1:               80.00 \n"
        "  Proposition precision:      2 / 7 * 100 = 28.57 %\n"
        "  Proposition recall:         2 / 7 * 100 = 28.57 %\n"
        "  Proposition F1:             28.57 \n"
        "  Exact semantic match:       2 / 6 * 100 = 33.33 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    68.21 %\n"
        "  Labeled macro recall:       68.21 %\n"
        "  Labeled macro F1:           68.21 %\n"
        "  Unlabeled macro precision:  80.48 %\n"
        "  Unlabeled macro recall:     80.48 %\n"
        "  Unlabeled macro F1:         80.48 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 8 + 5) / (21 + 13 + 7) * 100 = 68.29 %\n"
        "  Labeled micro recall:       (15 + 8 + 5) / (21 + 13 + 7) * 100 = 68.29 %\n"
        "  Labeled micro F1:           68.29 \n"
        "  Unlabeled micro precision:  (17 + 10 + 6) / (21 + 13 + 7) * 100 = 80.49 %\n"
        "  Unlabeled micro recall:     (17 + 10 + 6) / (21 + 13 + 7) * 100 = 80.49 %\n"
        "  Unlabeled micro F1:         80.49 \n"
        "\n"
        "  Note: NOT skipping SU predicates and arguments\n"
        "\n"
    ),
    ("basic.gold.conll08", "basic.sys.conll08", "-p -u"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 13 / 16 * 100 = 81.25 %\n"
        "  Unlabeled attachment score: 15 / 16 * 100 = 93.75 %\n"
        "  Label accuracy score:       13 / 16 * 100 = 81.25 %\n"
        "  Exact syntactic match:      3 / 5 * 100 = 60.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (8 + 5) / (13 + 7) * 100 = 65.00 %\n"
        "  Labeled recall:             (8 + 5) / (13 + 7) * 100 = 65.00 %\n"
        "  Labeled F1:                 65.00 \n"
        "  Unlabeled precision:        (10 + 6) / (13 + 7) * 100 = 80.00 %\n"
        "  Unlabeled recall:           (10 + 6) / (13 + 7) * 100 = 80.00 %\n"
        "  Unlabeled F1:               80.00 \n"
        "  Proposition precision:      2 / 7 * 100 = 28.57 %\n"
        "  Proposition recall:         2 / 7 * 100 = 28.57 %\n"
        "  Proposition F1:             28.57 \n"
        "  Exact semantic match:       2 / 6 * 100 = 33.33 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    73.12 %\n"
        "  Labeled macro recall:       73.12 %\n"
        "  Labeled macro F1:           73.12 %\n"
        "  Unlabeled macro precision:  86.88 %\n"
        "  Unlabeled macro recall:     86.88 %\n"
        "  Unlabeled macro F1:         86.88 %\n"
        "  Exact overall match:        1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (13 + 8 + 5) / (16 + 13 + 7) * 100 = 72.22 %\n"
        "  Labeled micro recall:       (13 + 8 + 5) / (16 + 13 + 7) * 100 = 72.22 %\n"
        "  Labeled micro F1:           72.22 \n"
        "  Unlabeled micro precision:  (15 + 10 + 6) / (16 + 13 + 7) * 100 = 86.11 %\n"
        "  Unlabeled micro recall:     (15 + 10 + 6) / (16 + 13 + 7) * 100 = 86.11 %\n"
        "  Unlabeled micro F1:         86.11 \n"
        "\n"
        "  Note: NOT skipping SU predicates and arguments\n"
        "\n"
    ),
    ("basic.gold.conll08", "nofinal.sys.conll08", ""): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (7 + 4) / (11 + 6) * 100 = 64.71 %\n"
        "  Labeled recall:             (7 + 4) / (11 + 6) * 100 = 64.71 %\n"
        "  Labeled F1:                 64.71 \n"
        "  Unlabeled precision:        (9 + 5) / (11 + 6) * 100 = 82.35 %\n"
        "  Unlabeled recall:           (9 + 5) / (11 + 6) * 100 = 82.35 %\n"
        "  Unlabeled F1:               82.35 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 6 * 100 = 33.33 %\n"
        "  Proposition F1:             33.33 \n"
        "  Exact semantic match:       1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    68.07 %\n"
        "  Labeled macro recall:       68.07 %\n"
        "  Labeled macro F1:           68.07 %\n"
        "  Unlabeled macro precision:  81.65 %\n"
        "  Unlabeled macro recall:     81.65 %\n"
        "  Unlabeled macro F1:         81.65 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 7 + 4) / (21 + 11 + 6) * 100 = 68.42 %\n"
        "  Labeled micro recall:       (15 + 7 + 4) / (21 + 11 + 6) * 100 = 68.42 %\n"
        "  Labeled micro F1:           68.42 \n"
        "  Unlabeled micro precision:  (17 + 9 + 5) / (21 + 11 + 6) * 100 = 81.58 %\n"
        "  Unlabeled micro recall:     (17 + 9 + 5) / (21 + 11 + 6) * 100 = 81.58 %\n"
        "  Unlabeled micro F1:         81.58 \n"
        "\n"
        "  Note: skipped SU predicates and arguments\n"
        "  \tSkipped 1 SU predicates and 1 SU arguments in gold output\n"
        "  \tSkipped 0 SU predicates and 0 SU arguments is system output\n"
        "\n"
    ),
    ("basic.gold.conll08", "nofinal.sys.conll08", "-u"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (7 + 4) / (11 + 6) * 100 = 64.71 %\n"
        "  Labeled recall:             (7 + 4) / (13 + 7) * 100 = 55.00 %\n"
        "  Labeled F1:                 59.46 \n"
        "  Unlabeled precision:        (9 + 5) / (11 + 6) * 100 = 82.35 %\n"
        "  Unlabeled recall:           (9 + 5) / (13 + 7) * 100 = 70.00 %\n"
        "  Unlabeled F1:               75.68 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 7 * 100 = 28.57 %\n"
        "  Proposition F1:             30.77 \n"
        "  Exact semantic match:       1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    68.07 %\n"
        "  Labeled macro recall:       63.21 %\n"
        "  Labeled macro F1:           65.55 %\n"
        "  Unlabeled macro precision:  81.65 %\n"
        "  Unlabeled macro recall:     75.48 %\n"
        "  Unlabeled macro F1:         78.44 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 7 + 4) / (21 + 11 + 6) * 100 = 68.42 %\n"
        "  Labeled micro recall:       (15 + 7 + 4) / (21 + 13 + 7) * 100 = 63.41 %\n"
        "  Labeled micro F1:           65.82 \n"
        "  Unlabeled micro precision:  (17 + 9 + 5) / (21 + 11 + 6) * 100 = 81.58 %\n"
        "  Unlabeled micro recall:     (17 + 9 + 5) / (21 + 13 + 7) * 100 = 75.61 %\n"
        "  Unlabeled micro F1:         78.48 \n"
        "\n"
        "  Note: NOT skipping SU predicates and arguments\n"
        "\n"
    ),
    ("basic.gold.conll08", "nopred.sys.conll08", ""): (  # exit status 255
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
    ),
}

EXPECTED_EVAL09 = {
    ("basic.gold.conll09", "basic.sys.conll09", ""): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (10 + 3) / (13 + 6) * 100 = 68.42 %\n"
        "  Labeled recall:             (10 + 3) / (12 + 6) * 100 = 72.22 %\n"
        "  Labeled F1:                 70.27 \n"
        "  Unlabeled precision:        (11 + 5) / (13 + 6) * 100 = 84.21 %\n"
        "  Unlabeled recall:           (11 + 5) / (12 + 6) * 100 = 88.89 %\n"
        "  Unlabeled F1:               86.49 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 6 * 100 = 33.33 %\n"
        "  Proposition F1:             33.33 \n"
        "  Exact semantic match:       2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    69.92 %\n"
        "  Labeled macro recall:       71.83 %\n"
        "  Labeled macro F1:           70.86 %\n"
        "  Unlabeled macro precision:  82.58 %\n"
        "  Unlabeled macro recall:     84.92 %\n"
        "  Unlabeled macro F1:         83.73 %\n"
        "  Exact overall match:        1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 10 + 3) / (21 + 13 + 6) * 100 = 70.00 %\n"
        "  Labeled micro recall:       (15 + 10 + 3) / (21 + 12 + 6) * 100 = 71.79 %\n"
        "  Labeled micro F1:           70.89 \n"
        "  Unlabeled micro precision:  (17 + 11 + 5) / (21 + 13 + 6) * 100 = 82.50 %\n"
        "  Unlabeled micro recall:     (17 + 11 + 5) / (21 + 12 + 6) * 100 = 84.62 %\n"
        "  Unlabeled micro F1:         83.54 \n"
    ),
    ("basic.gold.conll09", "basic.sys.conll09", "-p"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 13 / 16 * 100 = 81.25 %\n"
        "  Unlabeled attachment score: 15 / 16 * 100 = 93.75 %\n"
        "  Label accuracy score:       13 / 16 * 100 = 81.25 %\n"
        "  Exact syntactic match:      3 / 5 * 100 = 60.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (10 + 3) / (13 + 6) * 100 = 68.42 %\n"
        "  Labeled recall:             (10 + 3) / (12 + 6) * 100 = 72.22 %\n"
        "  Labeled F1:                 70.27 \n"
        "  Unlabeled precision:        (11 + 5) / (13 + 6) * 100 = 84.21 %\n"
        "  Unlabeled recall:           (11 + 5) / (12 + 6) * 100 = 88.89 %\n"
        "  Unlabeled F1:               86.49 \n"
        "  Proposition precision:      2 / 6 * 100 = 33.33 %\n"
        "  Proposition recall:         2 / 6 * 100 = 33.33 %\n"
        "  Proposition F1:             33.33 \n"
        "  Exact semantic match:       2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    74.84 %\n"
        "  Labeled macro recall:       76.74 %\n"
        "  Labeled macro F1:           75.77 %\n"
        "  Unlabeled macro precision:  88.98 %\n"
        "  Unlabeled macro recall:     91.32 %\n"
        "  Unlabeled macro F1:         90.13 %\n"
        "  Exact overall match:        2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (13 + 10 + 3) / (16 + 13 + 6) * 100 = 74.29 %\n"
        "  Labeled micro recall:       (13 + 10 + 3) / (16 + 12 + 6) * 100 = 76.47 %\n"
        "  Labeled micro F1:           75.36 \n"
        "  Unlabeled micro precision:  (15 + 11 + 5) / (16 + 13 + 6) * 100 = 88.57 %\n"
        "  Unlabeled micro recall:     (15 + 11 + 5) / (16 + 12 + 6) * 100 = 91.18 %\n"
        "  Unlabeled micro F1:         89.86 \n"
    ),
    ("basic.gold.conll09", "nofinal.sys.conll09", ""): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (9 + 3) / (12 + 6) * 100 = 66.67 %\n"
        "  Labeled recall:             (9 + 3) / (12 + 6) * 100 = 66.67 %\n"
        "  Labeled F1:                 66.67 \n"
        "  Unlabeled precision:        (10 + 5) / (12 + 6) * 100 = 83.33 %\n"
        "  Unlabeled recall:           (10 + 5) / (12 + 6) * 100 = 83.33 %\n"
        "  Unlabeled F1:               83.33 \n"
        "  Proposition precision:      1 / 6 * 100 = 16.67 %\n"
        "  Proposition recall:         1 / 6 * 100 = 16.67 %\n"
        "  Proposition F1:             16.67 \n"
        "  Exact semantic match:       1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    69.05 %\n"
        "  Labeled macro recall:       69.05 %\n"
        "  Labeled macro F1:           69.05 %\n"
        "  Unlabeled macro precision:  82.14 %\n"
        "  Unlabeled macro recall:     82.14 %\n"
        "  Unlabeled macro F1:         82.14 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 9 + 3) / (21 + 12 + 6) * 100 = 69.23 %\n"
        "  Labeled micro recall:       (15 + 9 + 3) / (21 + 12 + 6) * 100 = 69.23 %\n"
        "  Labeled micro F1:           69.23 \n"
        "  Unlabeled micro precision:  (17 + 10 + 5) / (21 + 12 + 6) * 100 = 82.05 %\n"
        "  Unlabeled micro recall:     (17 + 10 + 5) / (21 + 12 + 6) * 100 = 82.05 %\n"
        "  Unlabeled micro F1:         82.05 \n"
    ),
    ("basic.gold.conll09", "nopred.sys.conll09", ""): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 15 / 21 * 100 = 71.43 %\n"
        "  Unlabeled attachment score: 17 / 21 * 100 = 80.95 %\n"
        "  Label accuracy score:       17 / 21 * 100 = 80.95 %\n"
        "  Exact syntactic match:      2 / 5 * 100 = 40.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (0 + 0) / (0 + 0) * 100 = 0.00 %\n"
        "  Labeled recall:             (0 + 0) / (12 + 6) * 100 = 0.00 %\n"
        "  Labeled F1:                 0.00 \n"
        "  Unlabeled precision:        (0 + 0) / (0 + 0) * 100 = 0.00 %\n"
        "  Unlabeled recall:           (0 + 0) / (12 + 6) * 100 = 0.00 %\n"
        "  Unlabeled F1:               0.00 \n"
        "  Proposition precision:      0 / 0 * 100 = 0.00 %\n"
        "  Proposition recall:         0 / 6 * 100 = 0.00 %\n"
        "  Proposition F1:             0.00 \n"
        "  Exact semantic match:       1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    35.71 %\n"
        "  Labeled macro recall:       35.71 %\n"
        "  Labeled macro F1:           35.71 %\n"
        "  Unlabeled macro precision:  40.48 %\n"
        "  Unlabeled macro recall:     40.48 %\n"
        "  Unlabeled macro F1:         40.48 %\n"
        "  Exact overall match:        0 / 5 * 100 = 0.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (15 + 0 + 0) / (21 + 0 + 0) * 100 = 71.43 %\n"
        "  Labeled micro recall:       (15 + 0 + 0) / (21 + 12 + 6) * 100 = 38.46 %\n"
        "  Labeled micro F1:           50.00 \n"
        "  Unlabeled micro precision:  (17 + 0 + 0) / (21 + 0 + 0) * 100 = 80.95 %\n"
        "  Unlabeled micro recall:     (17 + 0 + 0) / (21 + 12 + 6) * 100 = 43.59 %\n"
        "  Unlabeled micro F1:         56.67 \n"
    ),
    ("basic.gold.conll09", "nopred.sys.conll09", "-p"): (  # exit status 0
        "  SYNTACTIC SCORES:\n"
        "  Labeled   attachment score: 13 / 16 * 100 = 81.25 %\n"
        "  Unlabeled attachment score: 15 / 16 * 100 = 93.75 %\n"
        "  Label accuracy score:       13 / 16 * 100 = 81.25 %\n"
        "  Exact syntactic match:      3 / 5 * 100 = 60.00 %\n"
        "\n"
        "  SEMANTIC SCORES: \n"
        "  Labeled precision:          (0 + 0) / (0 + 0) * 100 = 0.00 %\n"
        "  Labeled recall:             (0 + 0) / (12 + 6) * 100 = 0.00 %\n"
        "  Labeled F1:                 0.00 \n"
        "  Unlabeled precision:        (0 + 0) / (0 + 0) * 100 = 0.00 %\n"
        "  Unlabeled recall:           (0 + 0) / (12 + 6) * 100 = 0.00 %\n"
        "  Unlabeled F1:               0.00 \n"
        "  Proposition precision:      0 / 0 * 100 = 0.00 %\n"
        "  Proposition recall:         0 / 6 * 100 = 0.00 %\n"
        "  Proposition F1:             0.00 \n"
        "  Exact semantic match:       1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MACRO SCORES (Wsem = 0.50):\n"
        "  Labeled macro precision:    40.62 %\n"
        "  Labeled macro recall:       40.62 %\n"
        "  Labeled macro F1:           40.62 %\n"
        "  Unlabeled macro precision:  46.88 %\n"
        "  Unlabeled macro recall:     46.88 %\n"
        "  Unlabeled macro F1:         46.88 %\n"
        "  Exact overall match:        1 / 5 * 100 = 20.00 %\n"
        "\n"
        "  OVERALL MICRO SCORES:\n"
        "  Labeled micro precision:    (13 + 0 + 0) / (16 + 0 + 0) * 100 = 81.25 %\n"
        "  Labeled micro recall:       (13 + 0 + 0) / (16 + 12 + 6) * 100 = 38.24 %\n"
        "  Labeled micro F1:           52.00 \n"
        "  Unlabeled micro precision:  (15 + 0 + 0) / (16 + 0 + 0) * 100 = 93.75 %\n"
        "  Unlabeled micro recall:     (15 + 0 + 0) / (16 + 12 + 6) * 100 = 44.12 %\n"
        "  Unlabeled micro F1:         60.00 \n"
    ),
}

_OPTS = {"": {}, "-p": {"p": True}, "-u": {"u": True}, "-p -u": {"punct": False, "su": True}}
_STOPPED = "[eval08.pl stops here"


def _score(fmt, gold_path, sys_path, **opts):
    """``score``; nofinal.sys.* lack the final blank line, which eval08.pl / eval09.pl warn about."""
    if sys_path.name.startswith("nofinal."):
        with expect_warnings(DependencyWarning, "lacks 1 blank line"):
            return score(fmt, gold_path, sys_path, **opts)
    return score(fmt, gold_path, sys_path, **opts)


def _ints(line):
    return [int(x) for x in re.findall(r"(?<![.\d])\d+(?![.\d])", line.split(" * 100 =")[0].split(":", 1)[1])]


def _check_stats(rep):
    """Per-sentence statistics: sums equal the printed counts; the metric gives ``scores``."""
    n = len(rep.item_ids)
    for name, st in rep.stats.items():
        assert st.values.shape[0] == n, name
        m = metrics.get(st.metric, **st.metric_params)
        assert m.stat_names == st.stat_names
        assert m.evaluate(st.values.sum(0, keepdims=True), n)[0] == rep.scores[name], name
    text = {ln.split(":")[0].strip(): ln for ln in rep.text.splitlines() if ":" in ln}

    def tot(name):
        return [int(x) for x in rep.stats[name].values.sum(0)]

    for key, name in (
        ("Labeled   attachment score", "las"),
        ("Unlabeled attachment score", "uas"),
        ("Label accuracy score", "label_acc"),
        ("Exact syntactic match", "exact_syntactic"),
        ("Exact semantic match", "exact_semantic"),
        ("Exact overall match", "exact_overall"),
        ("Proposition precision", "prop_precision"),
    ):
        if key in text:
            assert _ints(text[key])[:2] == tot(name)[:2], key
    if "Proposition recall" in text:
        assert _ints(text["Proposition recall"]) == [tot("prop_recall")[0], tot("prop_recall")[2]]
    for kind in ("Labeled", "Unlabeled"):
        if f"{kind} precision" in text:
            a, b, c, d = _ints(text[f"{kind} precision"])
            e, f, g, h = _ints(text[f"{kind} recall"])
            assert tot(f"sem_{kind.lower()}_f1") == [a + b, c + d, g + h]
        if f"{kind} micro precision" in text:
            a, b, c, d, e, f = _ints(text[f"{kind} micro precision"])
            g, h, _i, j, k, l_ = _ints(text[f"{kind} micro recall"])
            assert tot(f"{kind.lower()}_micro_f1") == [a + b + c, d + e + f, j + k + l_]
    assert rep.default_metric == "labeled_macro_f1"
    assert rep.stats["labeled_macro_f1"].metric == "macro_f1_2008"
    assert rep.stats["labeled_macro_f1"].metric_params == {"weight": 0.5}


@pytest.mark.parametrize("key", list(EXPECTED_EVAL08))
def test_conll08_parity(key):
    gold, system, flags = key
    rep = _score("conll08", DATA / gold, DATA / system, **_OPTS[flags])
    expected = EXPECTED_EVAL08[key]
    if system.startswith("nopred"):
        head, last = rep.text.rstrip("\n").rsplit("\n", 1)
        assert head + "\n" == expected
        assert last.startswith(_STOPPED)
    else:
        assert rep.text == expected
    _check_stats(rep)


@pytest.mark.parametrize("key", list(EXPECTED_EVAL09))
def test_conll09_parity(key):
    gold, system, flags = key
    rep = _score("conll09", DATA / gold, DATA / system, **_OPTS[flags])
    assert rep.text == EXPECTED_EVAL09[key]
    _check_stats(rep)


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_macro_scores_match_printed(fmt):
    rep = score(fmt, DATA / f"basic.gold.{fmt}", DATA / f"basic.sys.{fmt}")
    printed = {
        ln.split(":")[0].strip(): float(ln.split(":")[1].split()[0])
        for ln in rep.text.splitlines()
        if "macro" in ln and "%" in ln
    }
    for key, name in (
        ("Labeled macro precision", "labeled_macro_precision"),
        ("Labeled macro recall", "labeled_macro_recall"),
        ("Labeled macro F1", "labeled_macro_f1"),
        ("Unlabeled macro precision", "unlabeled_macro_precision"),
        ("Unlabeled macro recall", "unlabeled_macro_recall"),
        ("Unlabeled macro F1", "unlabeled_macro_f1"),
    ):
        assert abs(100 * rep.scores[name] - printed[key]) <= 0.005 + 1e-9, key


def test_exact_semantic_pseudo_sentence_is_folded_in():
    # eval08 scores the empty pseudo-sentence after the final blank line: 2 / 6 for 5 sentences
    rep = score("conll08", DATA / "basic.gold.conll08", DATA / "basic.sys.conll08")
    v = rep.stats["exact_semantic"].values
    assert v.shape == (5, 2)
    assert list(v.sum(0)) == [2, 6]
    assert list(v[-1]) == [1, 2]  # the pseudo-sentence (right) rides on the last real sentence (wrong)
    rep = score("conll09", DATA / "basic.gold.conll09", DATA / "basic.sys.conll09")
    assert list(rep.stats["exact_semantic"].values.sum(0)) == [2, 5]


def test_eval08_division_by_zero_scores_are_zero():
    rep = score("conll08", DATA / "basic.gold.conll08", DATA / "nopred.sys.conll08")
    assert rep.scores["sem_labeled_precision"] == 0.0
    assert rep.scores["sem_labeled_f1"] == 0.0
    assert rep.scores["las"] == 15 / 21
    assert 0 < rep.scores["labeled_macro_f1"] < 1


def test_su_counts():
    rep = score("conll08", DATA / "basic.gold.conll08", DATA / "basic.sys.conll08")
    assert "Skipped 1 SU predicates and 1 SU arguments in gold output" in rep.text
    rep = score("conll08", DATA / "basic.gold.conll08", DATA / "basic.sys.conll08", su=True)
    assert "NOT skipping SU" in rep.text


def test_perl_numeric_senses():
    # eval08.pl compares senses with Perl's numeric ==
    assert _perl_num("01") == _perl_num("1") == 1
    assert _perl_num("XX") == _perl_num("YY") == _perl_num(None) == _perl_num("") == 0
    assert _perl_num("1e2") == 100 and _perl_num("1e") == 1 and _perl_num("12abc") == 12
    assert _perl_num("info") == math.inf and _perl_num("-Inf") == -math.inf
    assert math.isnan(_perl_num("nanx")) and _perl_num("nan") != _perl_num("nan")


def test_eval09_senses():
    assert _same_sense_09("01", "1") and _same_sense_09("001", "01") and _same_sense_09("0", "00")
    assert not _same_sense_09("XX", "YY") and _same_sense_09("XX", "XX")
    assert not _same_sense_09("01", "1a")


def test_option_errors():
    g, s = DATA / "basic.gold.conll09", DATA / "basic.sys.conll09"
    with pytest.raises(FormatError, match="no option"):
        score("conll09", g, s, su=True)
    with pytest.raises(InputError, match="contradict"):
        score("conll09", g, s, p=True, punct=True)
    g, s = DATA / "basic.gold.conll08", DATA / "basic.sys.conll08"
    with pytest.raises(InputError, match="contradict"):
        score("conll08", g, s, u=True, su=False)


# --- bad input -----------------------------------------------------------------------------


def _lines(fmt):
    return (DATA / f"basic.gold.{fmt}").read_text(encoding="utf-8").split("\n")


def _raises(tmp_path, fmt, lines, match, line=None, **opts):
    p = tmp_path / f"sys.{fmt}"
    p.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(FormatError, match=match) as ei:
        score(fmt, DATA / f"basic.gold.{fmt}", p, **opts)
    if line is not None:
        assert ei.value.line == line
    assert ei.value.path is not None
    return ei.value


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_sentence_count(tmp_path, fmt):
    lines = _lines(fmt)
    _raises(tmp_path, fmt, lines[:5], "5 sentences but the system file has 1")


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_token_count(tmp_path, fmt):
    lines = _lines(fmt)
    del lines[1]
    _raises(tmp_path, fmt, lines, "sentence 1 has 4 tokens in the gold file .* but 3", line=4)


@pytest.mark.parametrize("fmt, col", [("conll08", 5), ("conll09", 1)])
def test_form_mismatch(tmp_path, fmt, col):
    lines = _lines(fmt)
    f = lines[0].split("\t")
    f[col] = "Jon"
    lines[0] = "\t".join(f)
    # refused with strict=True; without it scored as the scripts score it (tests/test_divergences.py)
    _raises(tmp_path, fmt, lines, "system FORM 'Jon' differs from the gold FORM 'John'", line=1, strict=True)


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_missing_argument_column(tmp_path, fmt):
    lines = _lines(fmt)
    lines[6] = lines[6].rsplit("\t", 1)[0]  # sentence 2 has 2 predicates
    base = 11 if fmt == "conll08" else 14
    _raises(tmp_path, fmt, lines, f"sentence 2: {base + 1} columns, expected {base + 2}", line=7)


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_too_few_columns(tmp_path, fmt):
    lines = _lines(fmt)
    lines[2] = "\t".join(lines[2].split("\t")[:9])
    _raises(tmp_path, fmt, lines, "sentence 1: 9 columns, expected at least", line=3)


def test_empty_argument_label(tmp_path):
    lines = _lines("conll09")
    lines[0] = lines[0].rsplit("\t", 1)[0] + "\tA0||A1"
    # eval09.pl dies: "Argument labels can not be empty!"
    _raises(tmp_path, "conll09", lines, "empty argument label in 'A0||A1'", line=1)


def test_leading_whitespace_conll08(tmp_path):
    lines = _lines("conll08")
    lines[1] = " " + lines[1]
    _raises(tmp_path, "conll08", lines, "starts with whitespace", line=2)


def test_leading_whitespace_is_trimmed_by_conll09(tmp_path):
    # eval09.pl trims each line before splitting it
    lines = _lines("conll09")
    p = tmp_path / "sys.conll09"
    p.write_text("\n".join(" " + ln if ln else ln for ln in lines), encoding="utf-8")
    rep = score("conll09", DATA / "basic.gold.conll09", p)
    assert rep.scores["labeled_macro_f1"] == 1.0


def test_extra_trailing_blank_lines_read_as_tokens(tmp_path):
    # gold ends with three blank lines, system with none: the scripts read a blank line as
    # a token line (eval09.pl dies "Invalid number of tokens", eval08.pl makes up a predicate)
    g = tmp_path / "g.conll09"
    g.write_text("\n".join(_lines("conll09")) + "\n\n", encoding="utf-8")
    s = tmp_path / "s.conll09"
    s.write_text("\n".join(_lines("conll09")).rstrip("\n"), encoding="utf-8")
    with pytest.raises(FormatError, match="extra blank lines at the end"):
        score("conll09", g, s)


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_empty_and_undecodable(tmp_path, fmt):
    _raises(tmp_path, fmt, [], "system file is empty")
    p = tmp_path / "bad"
    p.write_bytes((DATA / f"basic.gold.{fmt}").read_bytes().replace(b"John", b"J\xf6hn"))
    with pytest.raises(FormatError, match="0xf6 at column 4 is not valid UTF-8") as ei:
        score(fmt, p, DATA / f"basic.gold.{fmt}")
    assert ei.value.line == 1 and ei.value.path == str(p)


def test_head_not_a_number(tmp_path):
    lines = _lines("conll09")
    f = lines[3].split("\t")
    f[8] = "-1"
    lines[3] = "\t".join(f)
    # in the system: a wrong head to eval09.pl (tests/test_divergences.py), refused with strict=True
    _raises(tmp_path, "conll09", lines, "HEAD .* is '-1'", line=4, strict=True)


def test_values_are_float_counts():
    rep = score("conll09", DATA / "basic.gold.conll09", DATA / "basic.sys.conll09")
    for st in rep.stats.values():
        assert st.values.dtype == np.float64
        assert (st.values >= 0).all() and (st.values == np.round(st.values)).all()


# --- units: the correct units are the numbers the reference scorers print -----------------

_SYN_LINES = {"las": "Labeled   attachment score", "uas": "Unlabeled attachment score", "label": "Label accuracy score"}
_SYN_STATS = {"las": "las", "uas": "uas", "label": "label_acc"}


@pytest.mark.parametrize(
    "fmt, key", [("conll08", k) for k in EXPECTED_EVAL08] + [("conll09", k) for k in EXPECTED_EVAL09]
)
def test_units_correct_equals_printed_counts(fmt, key):
    # every view: the correct units are the script's numerator (semantic: its guessed and gold
    # dependencies too), in total as printed and per sentence as the statistics have it
    gold, system, flags = key
    rep = _score(fmt, DATA / gold, DATA / system, **_OPTS[flags])
    expected = (EXPECTED_EVAL08 if fmt == "conll08" else EXPECTED_EVAL09)[key]
    text = {ln.split(":")[0].strip(): ln for ln in expected.splitlines() if ":" in ln}
    assert rep.views == ("las", "uas", "label", "sem", "sem_unlabeled")
    n = len(rep.item_ids)
    for view in rep.views:
        u = rep.units(view)
        assert u.n_sentences == n and u.sentence_ids == rep.item_ids
        correct = u.gold == u.system
        per_sentence = np.bincount(u.sentence[correct], minlength=n)
        if view in _SYN_LINES:
            assert u.keys is None
            assert [int(correct.sum()), len(u.gold)] == _ints(text[_SYN_LINES[view]])[:2]
            st = rep.stats[_SYN_STATS[view]].values
            np.testing.assert_array_equal(per_sentence, st[:, 0])
            np.testing.assert_array_equal(np.bincount(u.sentence, minlength=n), st[:, 1])
            continue
        assert u.keys is not None and len(set(u.keys)) == len(u.keys) and u.absent == "O"
        guessed = u.system != "O"
        kind = "Labeled" if view == "sem" else "Unlabeled"
        if f"{kind} precision" in text:
            a, b, c, d = _ints(text[f"{kind} precision"])
            _e, _f, g, h = _ints(text[f"{kind} recall"])
            assert [int(correct.sum()), int(guessed.sum()), int(u.gold_present.sum())] == [a + b, c + d, g + h]
        st = rep.stats[f"sem_{kind.lower()}_f1"].values
        np.testing.assert_array_equal(per_sentence, st[:, 0])
        np.testing.assert_array_equal(np.bincount(u.sentence[guessed], minlength=n), st[:, 1])
        np.testing.assert_array_equal(np.bincount(u.sentence[u.gold_present], minlength=n), st[:, 2])


def test_sem_units():
    rep = score("conll09", DATA / "basic.gold.conll09", DATA / "basic.sys.conll09")
    u = rep.units("sem")
    rows = {key: (form, g, s) for key, form, g, s in zip(u.keys, u.forms, u.gold, u.system)}
    assert rows[(0, 2, 0, 0)] == ("runs", ".01", ".01")  # run.1 for run.01: the same sense
    assert rows[(0, 2, 3, 0)] == ("runs → fast", "AM-MNR", "AM-TMP")
    assert rows[(1, 2, 0, 0)] == ("said", ".01", ".02")
    assert rows[(1, 2, 3, 0)] == ("said → he", "O", "A2")  # an argument only the system has
    assert rows[(3, 2, 0, 0)] == ("rose", ".XX", ".YY")  # eval09: XX and YY differ
    assert rows[(3, 3, 0, 0)] == ("sharply", "O", ".01")  # a predicate only the system has
    assert rows[(3, 6, 0, 0)] == ("Tokyo", ".01", "O")  # a predicate the system missed
    assert rows[(3, 6, 6, 0)] == ("Tokyo → Tokyo", "A0", "O")
    # A1|A0 against A0|A1|A0: two gold roles, both right
    assert rows[(4, 2, 1, 0)] == ("fell → Stocks", "A0", "A0")
    assert rows[(4, 2, 1, 1)] == ("fell → Stocks", "A1", "A1")
    # eval08 compares senses as numbers: XX == YY; SU predicates and arguments are no units unless su
    u8 = score("conll08", DATA / "basic.gold.conll08", DATA / "basic.sys.conll08").units("sem")
    rows8 = {key: (g, s) for key, g, s in zip(u8.keys, u8.gold, u8.system)}
    assert rows8[(3, 2, 0, 0)] == (".XX", ".XX")
    assert (4, 3, 0, 0) not in rows8 and (0, 2, 4, 0) not in rows8
    u8 = score("conll08", DATA / "basic.gold.conll08", DATA / "basic.sys.conll08", su=True).units("sem")
    rows8 = {key: (g, s) for key, g, s in zip(u8.keys, u8.gold, u8.system)}
    assert rows8[(4, 3, 0, 0)] == (".SU", ".SU") and rows8[(0, 2, 4, 0)] == ("SU", "O")


def _sentence(fmt, pred, cells):
    """One 2-token sentence: token 1 a predicate with PRED ``pred``, the argument cells of token 1 and 2."""
    if fmt == "conll08":
        rows = [
            ["1", "Cats", "cat", "NNS", "NNS", "Cats", "cat", "NNS", "0", "ROOT", pred, cells[0]],
            ["2", "purr", "purr", "VBP", "VBP", "purr", "purr", "VBP", "1", "OBJ", "_", cells[1]],
        ]
    else:
        rows = [
            ["1", "Cats", "cat", "cat", "N", "N", "_", "_", "0", "0", "ROOT", "ROOT", "Y", pred, cells[0]],
            ["2", "purr", "purr", "purr", "V", "V", "_", "_", "1", "1", "OBJ", "OBJ", "_", "_", cells[1]],
        ]
    return "\n".join("\t".join(r) for r in rows) + "\n\n"


@pytest.mark.parametrize("fmt", ["conll08", "conll09"])
def test_sem_units_odd_labels(tmp_path, fmt):
    # a role written O is never the absence mark; a sense the script never finds equal (eval08:
    # nan != nan) is wrong though it reads the same; conll09 A0|O against O|A1
    g, s = tmp_path / f"g.{fmt}", tmp_path / f"s.{fmt}"
    g.write_text(_sentence(fmt, "x.nan", ["O", "A0"]) + _sentence(fmt, "y.01", ["_", "A0|O"]), encoding="utf-8")
    s.write_text(_sentence(fmt, "x.nan", ["_", "A0"]) + _sentence(fmt, "y.01", ["O", "O|A1"]), encoding="utf-8")
    rep = score(fmt, g, s)
    for view, stat in (("sem", "sem_labeled_f1"), ("sem_unlabeled", "sem_unlabeled_f1")):
        u = rep.units(view)
        assert "O" not in set(u.gold[u.gold_present]) | set(u.system[~u.gold_present])
        correct = np.bincount(u.sentence[u.gold == u.system], minlength=2)
        np.testing.assert_array_equal(correct, rep.stats[stat].values[:, 0])
    u = rep.units("sem")
    rows = {key: (gl, sl) for key, gl, sl in zip(u.keys, u.gold, u.system)}
    assert rows[(0, 1, 1, 0)] == ("'O'", "O")  # gold role O, the system has none
    assert rows[(1, 1, 1, 0)] == ("O", "'O'")  # a system role O where gold has none
    if fmt == "conll08":
        assert rows[(0, 1, 0, 0)] == (".nan", ".nan≠")  # eval08: nan == nan is false
        assert rows[(1, 1, 2, 0)] == ("A0|O", "O|A1")
        assert rep.stats["sem_labeled_f1"].values[:, 0].tolist() == [1, 1]
    else:
        assert rows[(0, 1, 0, 0)] == (".nan", ".nan")  # eval09 compares non-digit senses as strings
        assert rows[(1, 1, 2, 0)] == ("A0", "A1") and rows[(1, 1, 2, 1)] == ("'O'", "'O'")
        assert rep.stats["sem_labeled_f1"].values[:, 0].tolist() == [2, 2]
