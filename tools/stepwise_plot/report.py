"""Read the JSON reports that the chapters print with `--format json`.

The schema is written by `render_json` in common/host/report.cpp. This module needs only the
standard library: it is what the figures draw from, and what the tests check first.
"""
import json
import sys
from dataclasses import dataclass, field
from typing import List, Optional


class ReportError(Exception):
    """A report that cannot be read or cannot be drawn as asked; the message says why."""


SHAPE_FIELDS = ("threads", "items", "blocks_per_sm")


@dataclass(frozen=True)
class Shape:
    """A launch shape: threads per block, items per thread, blocks per SM (0 = unused)."""

    threads: int
    items: int
    blocks_per_sm: int
    label: str

    def value(self, name: str) -> int:
        """The value of one of SHAPE_FIELDS."""
        return getattr(self, name)


@dataclass
class SweepPoint:
    """One launch shape tried by `--sweep`: its check and, when it passed, its time."""

    shape: Shape
    check: str
    check_detail: str
    median_ms: Optional[float]
    gbps: Optional[float]

    @property
    def failed(self) -> bool:
        """True when the shape gave a wrong result (and was not timed)."""
        return self.check == "FAIL" or self.median_ms is None


@dataclass
class Row:
    """One row of a chapter's table: a kernel stage, a library call or the CPU reference."""

    kind: str
    number: int
    name: str
    shape: Shape
    check: str
    check_detail: str
    step_speedup: Optional[float]
    total_speedup: Optional[float]
    median_ms: Optional[float]
    gbps: Optional[float]
    pct_memcpy: Optional[float]
    sweep: List[SweepPoint] = field(default_factory=list)
    gflops: Optional[float] = None
    variant: str = ""  # a variant row (--variants): the change of stage `number` it undoes
    matches_library: bool = True  # false: the row does less than the library (chapter 06's unordered stages)
    lesson: str = ""  # what the row's stage changed and why (its stage file's `stage.lesson`; tools/slides)

    @property
    def is_variant(self) -> bool:
        """True for a variant row: stage `number` with one change undone."""
        return bool(self.variant)

    @property
    def failed(self) -> bool:
        """True when the row's check failed (a failed row has no time)."""
        return self.check == "FAIL" or self.median_ms is None

    @property
    def label(self) -> str:
        """The row as the table's first two columns name it: `4 first-add`, `lib cub`."""
        if self.is_variant:
            return f"{self.number} - {self.variant}"
        if self.kind == "kernel":
            return f"{self.number} {self.name}"
        return f"lib {self.name}" if self.kind == "library" else self.name


@dataclass
class Report:
    """One run of one chapter."""

    source: str
    chapter_id: str
    chapter_name: str
    device_name: str
    peak_gbps: float
    n: int
    element_type: str
    memcpy_gbps: float
    flush: str
    date: str
    sweep: bool
    rows: List[Row]
    command: str = ""  # the chapter's command line, as the report gives it
    problem: str = ""  # the label of the size sweep's problem the run is of (the tour's --problems), else empty

    @property
    def chapter(self) -> str:
        """`00 bandwidth`."""
        return f"{self.chapter_id} {self.chapter_name}"

    def kernels(self) -> List[Row]:
        """The kernel stages in table order, one row per stage number.

        After `--sweep`, the shapes of a stage that failed follow its best row as extra rows
        with the same number; the sweep figure shows them, the stage figures keep the first.
        Variant rows (--variants) are left out: the staircase and the bandwidth bars show the
        stages, and variants() the rest.
        """
        seen = set()
        rows = []
        for row in self.rows:
            if row.kind == "kernel" and not row.is_variant and row.number not in seen:
                seen.add(row.number)
                rows.append(row)
        return rows

    def variants(self) -> List[Row]:
        """The variant rows, in table order (each right after its stage)."""
        return [row for row in self.rows if row.is_variant]

    def libraries(self) -> List[Row]:
        """The library rows in table order."""
        return [row for row in self.rows if row.kind == "library"]

    def stages(self) -> List[Row]:
        """Kernels, then libraries, in table order (the rows the GPU ran)."""
        kernels = {id(row) for row in self.kernels()}
        return [row for row in self.rows if id(row) in kernels or row.kind == "library"]


def _number(value, where: str) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ReportError(f"{where}: expected a number or null, got {value!r}")
    return float(value)


def _require(document: dict, key: str, where: str):
    if not isinstance(document, dict) or key not in document:
        raise ReportError(f"{where}: not a stepwise report (no '{key}'); write one with --format json")
    return document[key]


def _shape(document: dict, where: str) -> Shape:
    document = document or {}
    values = [int(_number(document.get(name, 0), f"{where}.{name}") or 0) for name in SHAPE_FIELDS]
    return Shape(*values, label=str(document.get("label", "-")))


def _sweep_point(document: dict, where: str) -> SweepPoint:
    return SweepPoint(
        shape=_shape(document.get("shape"), f"{where}.shape"),
        check=str(_require(document, "check", where)),
        check_detail=str(document.get("check_detail", "")),
        median_ms=_number(document.get("median_ms"), f"{where}.median_ms"),
        gbps=_number(document.get("gbps"), f"{where}.gbps"),
    )


def _row(document: dict, where: str) -> Row:
    sweep = document.get("sweep") or []
    return Row(
        kind=str(_require(document, "kind", where)),
        number=int(document.get("number", 0)),
        name=str(_require(document, "name", where)),
        shape=_shape(document.get("shape"), f"{where}.shape"),
        check=str(_require(document, "check", where)),
        check_detail=str(document.get("check_detail", "")),
        step_speedup=_number(document.get("step_speedup"), f"{where}.step_speedup"),
        total_speedup=_number(document.get("total_speedup"), f"{where}.total_speedup"),
        median_ms=_number(document.get("median_ms"), f"{where}.median_ms"),
        gbps=_number(document.get("gbps"), f"{where}.gbps"),
        pct_memcpy=_number(document.get("pct_memcpy"), f"{where}.pct_memcpy"),
        sweep=[_sweep_point(point, f"{where}.sweep[{i}]") for i, point in enumerate(sweep)],
        gflops=_number(document.get("gflops"), f"{where}.gflops"),
        variant=str(document.get("variant") or ""),
        matches_library=bool(document.get("matches_library", True)),
        lesson=str(document.get("lesson") or ""),
    )


def parse_report(document: dict, source: str) -> Report:
    """Turn one decoded JSON object into a Report; ReportError names what is missing."""
    chapter = _require(document, "chapter", source)
    device = document.get("device") or {}
    rows = _require(document, "rows", source)
    if not isinstance(rows, list):
        raise ReportError(f"{source}: 'rows' is not a list")
    return Report(
        source=source,
        chapter_id=str(_require(chapter, "id", f"{source}: chapter")),
        chapter_name=str(_require(chapter, "name", f"{source}: chapter")),
        device_name=str(device.get("name", "unknown GPU")),
        peak_gbps=_number(device.get("peak_gbps"), f"{source}: device.peak_gbps") or 0.0,
        n=int(_require(document, "n", source)),
        element_type=str(document.get("element_type", "")),
        memcpy_gbps=_number(document.get("memcpy_gbps"), f"{source}: memcpy_gbps") or 0.0,
        flush=str(document.get("flush", "")),
        date=str(document.get("date", "")),
        sweep=bool(document.get("sweep", False)),
        rows=[_row(row, f"{source}: rows[{i}]") for i, row in enumerate(rows)],
        command=str(document.get("command", "")),
        problem=_problem_label(document.get("problem"), source),
    )


def _problem_label(problem, source: str) -> str:
    """The label of the report's `problem` object (the tour's --problems adds it), empty without one."""
    if problem is None:
        return ""
    label = problem.get("label") if isinstance(problem, dict) else None
    if not isinstance(label, str) or not label:
        raise ReportError(f"{source}: 'problem' has no label (the tour writes {{\"label\": ..., \"arguments\": ...}})")
    return label


def read_json(path: str):
    """The JSON document in one file ('-' is standard input), unparsed."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            document = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as stream:
                document = json.load(stream)
    except OSError as error:
        raise ReportError(f"{name}: {error.strerror}") from error
    except json.JSONDecodeError as error:
        raise ReportError(f"{name}: not JSON ({error.msg} at line {error.lineno})") from error
    return document


def read_file(path: str) -> List[Report]:
    """Every run in one file ('-' is standard input): a report object or an array of them."""
    name = "standard input" if path == "-" else path
    document = read_json(path)
    documents = document if isinstance(document, list) else [document]
    if not documents:
        raise ReportError(f"{name}: an empty array, no report in it")
    if len(documents) == 1:
        return [parse_report(documents[0], name)]
    return [parse_report(item, f"{name} [run {i + 1}]") for i, item in enumerate(documents)]


def read_one(path: str, run: Optional[int] = None) -> Report:
    """The one run a single-report figure draws; `run` (1-based) picks it from an array."""
    reports = read_file(path)
    if run is not None:
        if not 1 <= run <= len(reports):
            raise ReportError(f"{path}: --run {run}, but the file holds {len(reports)} run(s)")
        return reports[run - 1]
    if len(reports) > 1:
        sizes = ", ".join(format_n(report.n) for report in reports)
        raise ReportError(f"{path} holds {len(reports)} runs (n = {sizes}): choose one with --run 1..{len(reports)}")
    return reports[0]


def read_series(paths: List[str]) -> List[Report]:
    """The runs of several files for a figure against n: one chapter, one type, one GPU, one run per n."""
    reports = [report for path in paths for report in read_file(path)]
    _require_same(reports, "chapter", lambda report: report.chapter, "plot one chapter at a time")
    _require_same(reports, "element type", lambda report: report.element_type, "plot one type at a time")
    _require_same(reports, "device", lambda report: report.device_name, "plot one GPU at a time")
    by_n = {}
    for report in reports:
        if report.n in by_n:
            raise ReportError(
                f"two runs at n = {format_n(report.n)} ({by_n[report.n].source}, {report.source}): keep one per size"
            )
        by_n[report.n] = report
    if len(by_n) < 2:
        raise ReportError("time-vs-n needs runs at two or more sizes (one JSON report per --n)")
    return [by_n[n] for n in sorted(by_n)]


def _require_same(reports: List[Report], what: str, key, advice: str) -> None:
    values = {}
    for report in reports:
        values.setdefault(key(report), report.source)
    if len(values) > 1:
        listing = "; ".join(f"{source}: {value}" for value, source in values.items())
        raise ReportError(f"the reports are of different {what}s ({listing}): {advice}")


def format_n(n: int) -> str:
    """n as the chapters' --n accepts it: 2^28 for powers of two, else 1,000,003."""
    if n >= 1024 and n & (n - 1) == 0:
        return f"2^{n.bit_length() - 1}"
    return f"{n:,}"
