"""The bounded fuzz suite (issue 11): a fixed seed and a case count that runs in about a
minute on 2 cores, with no failure allowed; and the self-check that each failure class is
detected. `python -m fuzz --cases 5000` is the long campaign."""

from collections import Counter
from pathlib import Path

import pytest

from fuzz import cache_cases, corpus, outcomes, report_cases, runtime_cases
from fuzz.campaign import TARGETS, replay, run_and_count, run_campaign, table
from fuzz.cases import Case
from fuzz.runner import preload
from fuzz.self_check import fake_cases

SEED = 11
CASES = 60


def test_every_failure_class_is_detected(tmp_path: Path):
    cases = fake_cases()
    result = run_and_count(cases, tmp_path, jobs=len(cases), timeout=2.0, out=None)
    assert {c: n for (_, c), n in result.counts.items()} == Counter(case.note for case in cases)


def test_reproducers_hold_the_input_as_it_was(tmp_path: Path):
    cases = [c for c in fake_cases() if c.note == outcomes.WRITE_ON_ERROR]
    result = run_and_count(cases, tmp_path / "work", jobs=1, timeout=2.0, out=tmp_path / "out")
    reproducer = tmp_path / "out" / outcomes.WRITE_ON_ERROR / "self-check-0"
    assert result.failed
    assert (reproducer / "out.mlir").read_text() == "before\n"
    assert "fake.py" in (reproducer / "REPRODUCE").read_text()


@pytest.mark.build  # builds saxpy for the runtime cases; the self-checks stay in the fast subset
def test_bounded_campaign_finds_nothing(tmp_path: Path):
    result = run_campaign(SEED, CASES, TARGETS, jobs=2, timeout=10.0, out=tmp_path)
    failures = "\n".join(f"case {i} ({case.target}: {case.note[:100]}): {c}: {reason[:200]}"
                         for i, case, c, reason in result.failures)
    assert not result.failed, f"{table(result.counts, result.seconds)}\n{failures}"


def test_exit_0_on_input_that_must_be_refused_is_a_wrong_answer():
    run = outcomes.Finished(status=0, signal=None, timed_out=False, stderr="", files_changed=(), canary=False,
                            injected=(), seconds=0.1, extra_memory_mib=0)
    assert outcomes.classify(run)[0] == outcomes.OK
    assert outcomes.classify(run, must_fail=True)[0] == outcomes.WRONG


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> dict[str, bytes]:
    program = runtime_cases.prepare(tmp_path_factory.mktemp("prepared"))
    preload()
    return program


@pytest.mark.build
def test_every_runtime_misuse_is_refused_or_right(tmp_path: Path, prepared):
    """Each misuse of the callable once, whatever the campaign's seed draws."""
    cases = [runtime_cases.misuse_case(name, prepared) for name in sorted(runtime_cases.MISUSES)]
    result = run_and_count(cases, tmp_path / "cases", jobs=2, timeout=10.0, out=None)
    failures = "\n".join(f"{case.note}: {c}: {reason[:200]}" for _, case, c, reason in result.failures)
    assert not result.failed, failures


@pytest.mark.build
def test_every_cache_tampering_is_noticed_and_nothing_planted_runs(tmp_path: Path, prepared):
    """Each tampering once, one of them under umask 000 (the campaign draws it for a quarter)."""
    cases = [cache_cases.tampering_case(name, prepared, umask=name.startswith("index"))
             for name in sorted(cache_cases.TAMPERINGS)]
    result = run_and_count(cases, tmp_path / "cases", jobs=2, timeout=10.0, out=None)
    failures = "\n".join(f"{case.note}: {c}: {reason[:200]}" for _, case, c, reason in result.failures)
    assert not result.failed, failures


def test_every_hostile_report_is_refused_or_drawn(tmp_path: Path):
    """ipu-lower-report on each hostile input once (lone surrogates, 10**400, 1e400, files
    and titles that are not UTF-8, outputs that cannot be written, usage errors)."""
    preload()
    result = run_and_count(report_cases.hostile_cases(), tmp_path, jobs=2, timeout=10.0, out=None)
    failures = "\n".join(f"{case.note}: {c}: {reason[:200]}" for _, case, c, reason in result.failures)
    assert not result.failed, failures
    assert result.counts["report-page", outcomes.OK] == 4  # the odd but valid inputs draw a page


def test_saved_cases_leave_out_the_prepared_program():
    program = {"host.cpp": b"// host", "program.json": b"{}"}
    case = Case("t", "ipu-run", ("prog",), {"prog/host.cpp": b"// host", "prog/program.json": b"[", "x.npy": b"\x93NUMPY\xff"})
    text = corpus.dumps(case, program)
    assert "// host" not in text
    assert corpus.loads(text, program) == case


@pytest.mark.build
def test_regression_seeds_in_the_corpus_pass(tmp_path: Path):
    """fuzz/corpus: one small case per failure class the campaigns found against 751e2b1."""
    result = replay([corpus.CORPUS], jobs=2, timeout=10.0, out=tmp_path)
    failures = "\n".join(f"{case.note}: {c}: {reason[:200]}" for _, case, c, reason in result.failures)
    assert not result.failed, failures
