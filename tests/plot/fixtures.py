"""Synthetic chapter reports in the schema of common/host/report.cpp (render_json), for the plot tests.

The times are those of the measured tables in the chapter READMEs (NVIDIA H200, 2026-11-21);
the derived columns (GB/s, % memcpy, % peak, step and total speedup) are computed here the way
derive_columns computes them.
"""
import copy

H200 = {"ordinal": 0, "name": "NVIDIA H200", "sm": "sm_90", "sm_count": 132, "l2_bytes": 62914560,
        "global_bytes": 150754820096, "memory_clock_khz": 3201000, "bus_width_bits": 6144,
        "driver_version": 13000, "runtime_version": 13000, "peak_gbps": 4814.3}

CHAPTERS = {
    "00": ("bandwidth", "copy kernels against cudaMemcpy: the ceiling of every chapter"),
    "01": ("reduction", "parallel reduction, from Harris's kernel 1 to CUB"),
    "02": ("scan", "prefix scan, from naive to single-pass"),
    "03": ("merge", "merge: per-element binary search to Merge Path, against CUB and Thrust"),
    "04": ("spmv", "CSR sparse matrix-vector multiply, against cuSPARSE"),
    "06": ("compaction", "stream compaction, from one atomic per element to a single pass"),
    "08": ("join", "relational joins on sorted tables"),
    "10": ("segmented", "segmented primitives: segmented reduce and scan, run-length encoding, set operations"),
}

# (kind, number, name, median ms at n = 2^22, median ms at n = 2^28), README of chapter 01.
REDUCTION = [
    ("kernel", 1, "interleaved-divergent", 0.0501, 2.5536),
    ("kernel", 2, "interleaved-strided", 0.0342, 1.5905),
    ("kernel", 3, "sequential", 0.0286, 1.2333),
    ("kernel", 4, "first-add", 0.0196, 0.6637),
    ("kernel", 5, "unroll-last-warp", 0.0173, 0.5069),
    ("kernel", 6, "complete-unroll", 0.0164, 0.4636),
    ("kernel", 7, "multiple-per-thread", 0.0139, 0.2965),
    ("kernel", 8, "warp-shuffle", 0.0141, 0.2977),
    ("kernel", 9, "vectorized", 0.0126, 0.2465),
    ("kernel", 10, "single-pass", 0.0112, 0.2451),
    ("library", 0, "cub::DeviceReduce::Sum", 0.0127, 0.2464),
    ("cpu", 0, "cpu reference", 0.4432, 89.1480),
]

# (kind, number, name, median ms at n = 2^28), README of chapter 02 (int32, exclusive).
SCAN = [
    ("kernel", 1, "hillis-steele", 2.1888),
    ("kernel", 2, "blelloch", 3.2015),
    ("kernel", 3, "rts-vt8", 0.9301),
    ("kernel", 4, "rts-vt7", 0.9189),
    ("kernel", 5, "rts-shuffle", 0.8244),
    ("kernel", 6, "single-pass", 0.7211),
    ("library", 0, "cub", 0.6862),
    ("cpu", 0, "cpu reference", 251.2325),
]

NO_SHAPE = {"threads": 0, "items": 0, "blocks_per_sm": 0}


def label(shape: dict) -> str:
    """The shape's label as describe() in common/host/types.cpp writes it."""
    if not any(shape.values()):
        return "-"
    text = f"{shape['threads']}x{shape['items']}" if shape["items"] else f"{shape['threads']} thr"
    if shape["blocks_per_sm"]:
        text += f", {shape['blocks_per_sm']} blk/SM"
    return text


def shape_json(threads: int = 0, items: int = 0, blocks_per_sm: int = 0) -> dict:
    """A shape object of the report."""
    shape = {"threads": threads, "items": items, "blocks_per_sm": blocks_per_sm}
    return dict(shape, label=label(shape))


def timing(median_ms, bytes_moved: float, reps: int = 20) -> dict:
    """The timing fields of a row or sweep point (all null when median_ms is None: a failed check)."""
    if median_ms is None:
        return {key: None for key in ("median_ms", "min_ms", "max_ms", "reps", "gbps")}
    return {"median_ms": median_ms, "min_ms": median_ms * 0.99, "max_ms": median_ms * 1.02, "reps": reps,
            "gbps": bytes_moved / (median_ms * 1e-3) / 1e9}


def sweep_point(threads, items, blocks_per_sm, median_ms, bytes_moved, detail="") -> dict:
    """One entry of a row's sweep list; median_ms None is a shape that failed its check."""
    point = {"shape": shape_json(threads, items, blocks_per_sm), "check": "PASS" if median_ms else "FAIL",
             "check_detail": detail if median_ms is None else ""}
    point.update(timing(median_ms, bytes_moved, reps=5))
    return point


def row(kind, number, name, median_ms, bytes_moved, shape=None, detail="", sweep=None) -> dict:
    """A table row before its derived columns; median_ms None is a row that failed its check."""
    verdict = "ref" if kind == "cpu" else ("PASS" if median_ms is not None else "FAIL")
    entry = {"kind": kind, "number": number, "name": name, "lesson": f"what {name} teaches",
             "shape": shape or shape_json(), "check": verdict, "check_detail": detail if median_ms is None else ""}
    entry.update(timing(median_ms, bytes_moved))
    entry["sweep"] = sweep or []
    return entry


def derive(report: dict) -> dict:
    """Fill step_speedup, total_speedup, pct_memcpy and pct_peak as derive_columns does."""
    first = previous = stage = None
    for entry in report["rows"]:
        entry["step_speedup"] = entry["total_speedup"] = None
        variant = entry["kind"] == "kernel" and bool(entry.get("variant"))
        if entry["kind"] == "kernel" and not variant:
            stage = entry if entry["median_ms"] is not None else None
        if entry["median_ms"] is None:
            entry["pct_memcpy"] = entry["pct_peak"] = None
            continue
        entry["pct_memcpy"] = 100.0 * entry["gbps"] / report["memcpy_gbps"]
        entry["pct_peak"] = 100.0 * entry["gbps"] / report["device"]["peak_gbps"]
        if variant:
            if stage is not None and stage["number"] == entry["number"]:
                entry["step_speedup"] = stage["median_ms"] / entry["median_ms"]
        elif entry["kind"] == "kernel":
            if previous is not None:
                entry["step_speedup"] = previous["median_ms"] / entry["median_ms"]
            first = first or entry
            previous = entry
        if first is not None:
            entry["total_speedup"] = first["median_ms"] / entry["median_ms"]
    return report


def report(chapter_id: str, n: int, rows: list, bytes_per_element: float, element_type="int32",
           sweep=False, date="2026-11-21", device=None) -> dict:
    """A whole report; `rows` are row() dicts built with bytes_moved = n * bytes_per_element."""
    name, title = CHAPTERS[chapter_id]
    document = {
        "chapter": {"id": chapter_id, "name": name, "title": title},
        "device": copy.deepcopy(device or H200),
        "n": n, "element_type": element_type, "bytes_moved": n * bytes_per_element, "memcpy_gbps": 4215.0,
        "flush": "read", "l2_flushed": True, "seed": 20261121,
        "command": f"build/bin/chapter_{chapter_id}_{name} --n {n} --format json",
        "date": date, "sweep": sweep, "notes": [], "rows": rows,
    }
    return derive(document)


def reduction(exponent: int = 28, fail_stage: int = None) -> dict:
    """Chapter 01 at n = 2^22 or 2^28 (the README's two int32 tables); a stage can be made to fail."""
    n = 2 ** exponent
    column = 3 if exponent == 22 else 4
    rows = []
    for entry in REDUCTION:
        kind, number, name = entry[:3]
        median = None if (kind == "kernel" and number == fail_stage) else entry[column]
        shape = shape_json(1024 if number >= 9 else 256) if kind == "kernel" else None
        rows.append(row(kind, number, name, median, 4.0 * n, shape,
                        detail="before timing: 1 of 1 values differ: [0] = 3735928559, want 12"))
    return report("01", n, rows, 4.0)


def scan(fail_stage: int = None) -> dict:
    """Chapter 02, int32 exclusive at n = 2^28 (README); a stage can be made to fail."""
    n = 2 ** 28
    rows = [row(kind, number, name, None if number == fail_stage and kind == "kernel" else median, 8.0 * n,
                shape_json(128, 7) if number in (4, 5) else None,
                detail="after timing: 17 of 268435456 values differ, first at [1048576]")
            for kind, number, name, median in SCAN]
    return report("02", n, rows, 8.0)


def scan_with_variants() -> dict:
    """scan() with two variant rows of stage 4 after it (--variants): one slower, one that failed."""
    document = scan()
    rows = document["rows"]
    at = next(i for i, entry in enumerate(rows) if entry["kind"] == "kernel" and entry["number"] == 4)
    stage = rows[at]
    slower = row("kernel", 4, stage["name"], stage["median_ms"] * 1.25, document["bytes_moved"], stage["shape"])
    slower["variant"] = "packed flags"
    failed = row("kernel", 4, stage["name"], None, document["bytes_moved"], stage["shape"], detail="2 values differ")
    failed["variant"] = "staged stores"
    rows[at + 1:at + 1] = [slower, failed]
    return derive(document)


def grid_stride_sweep(n: int = 2 ** 24) -> list:
    """Chapter 00's grid-stride shapes: threads x blocks per SM, the fastest at 256 x 128."""
    bytes_moved = 8.0 * n
    points = []
    for threads in (128, 256, 512, 1024):
        for blocks in (1, 2, 4, 8, 16, 32, 64, 128):
            gbps = 2600.0 * min(1.0, threads * blocks / 8192) * (1.0 if (threads, blocks) == (256, 128) else 0.97)
            points.append(sweep_point(threads, 0, blocks, bytes_moved / (gbps * 1e6), bytes_moved))
    return points


def tile_sweep(n: int = 2 ** 24) -> list:
    """Chapter 02's NT x VT tiles of stage 6: one shape fails its check, one was not tried."""
    bytes_moved = 8.0 * n
    points = []
    for threads in (128, 256):
        for items in (7, 8, 11, 12, 15, 16, 23, 31):
            if (threads, items) == (256, 31):
                continue
            median = None if (threads, items) == (256, 23) else 0.030 + 0.0004 * abs(items - 15) + threads * 1e-6
            points.append(sweep_point(threads, items, 0, median, bytes_moved,
                                      detail="before timing: 5 of 16777216 values differ, first at [8191]"))
    return points


def block_sweep(n: int = 2 ** 24) -> list:
    """Chapter 00's one-per-thread shapes: threads per block only."""
    bytes_moved = 8.0 * n
    return [sweep_point(threads, 0, 0, median, bytes_moved)
            for threads, median in ((128, 0.0824), (256, 0.0558), (512, 0.0594), (1024, 0.0647))]


def three_field_sweep(n: int = 2 ** 24) -> list:
    """Threads, items and blocks per SM all varying (chapter 00's int4-unrolled, were items swept)."""
    bytes_moved = 8.0 * n
    return [sweep_point(threads, items, blocks, 0.04 + 0.001 * items + 0.002 / blocks + threads * 1e-6, bytes_moved)
            for threads in (128, 256) for items in (2, 4) for blocks in (4, 8)]


def fastest(points: list) -> float:
    """The median time of the fastest shape that passed (what the stage's row reports)."""
    return min(point["median_ms"] for point in points if point["median_ms"] is not None)


def bandwidth_sweep(n: int = 2 ** 24) -> dict:
    """A --sweep report of chapter 00's kind, with the three kinds of sweep and a shape that failed."""
    bytes_moved = 8.0 * n
    sweeps = {1: block_sweep(n), 2: grid_stride_sweep(n), 3: tile_sweep(n), 4: three_field_sweep(n)}
    rows = [
        row("kernel", 1, "one-per-thread", fastest(sweeps[1]), bytes_moved, shape_json(256), sweep=sweeps[1]),
        row("kernel", 2, "grid-stride", fastest(sweeps[2]), bytes_moved, shape_json(256, 0, 128), sweep=sweeps[2]),
        row("kernel", 3, "rts-tiles", fastest(sweeps[3]), bytes_moved, shape_json(128, 15), sweep=sweeps[3]),
        row("kernel", 4, "int4-unrolled", fastest(sweeps[4]), bytes_moved, shape_json(128, 2, 8), sweep=sweeps[4]),
        row("kernel", 4, "int4-unrolled (256x4, 4 blk/SM)", None, bytes_moved, shape_json(256, 4, 4),
            detail="the launcher refused: too many threads"),
        row("kernel", 5, "vector-int4", 0.0425, bytes_moved, shape_json(512, 0, 64)),
        row("library", 0, "cudaMemcpy", 0.0423, bytes_moved),
        row("cpu", 0, "cpu reference", 7.8238, bytes_moved),
    ]
    return report("00", n, rows, 8.0, sweep=True)


COPIES = ((1, "one-per-thread", 1.0, 2673.0), (2, "grid-stride", 1.5, 3027.0), (3, "warp-sequences", 1.0, 4264.0))


def bandwidth_runs() -> list:
    """Chapter 00 at four sizes, one run each (the time-vs-n figure): a launch cost, then the GB/s of the README."""
    runs = []
    launch = 0.004
    for exponent in (20, 22, 24, 26):
        n = 2 ** exponent
        rows = [row("kernel", number, name, launch * launches + 8.0 * n / (gbps * 1e6), 8.0 * n, shape_json(256))
                for number, name, launches, gbps in COPIES]
        rows.append(row("library", 0, "cudaMemcpy", launch + 8.0 * n / 4229.7e6, 8.0 * n))
        runs.append(report("00", n, rows, 8.0))
    return runs


def reduction_variants(drop=(), fail=()) -> list:
    """Chapter 01 at n = 2^28 three times, as if a parameter changed from run to run: in run k (0, 1, 2)
    stage s is 1 + k * s / 10 times faster than in the README, cub and stage 1 unchanged. `drop` and `fail`
    hold (run, stage number) pairs: a kernel stage left out of that run, or failed in it."""
    n = 2 ** 28
    runs = []
    for k in range(3):
        rows = []
        for kind, number, name, _, median in REDUCTION:
            if kind == "kernel" and (k, number) in drop:
                continue
            if kind == "kernel" and number > 1:
                median = median / (1 + k * number / 10)
            if kind == "kernel" and (k, number) in fail:
                median = None
            rows.append(row(kind, number, name, median, 4.0 * n, shape_json(256) if kind == "kernel" else None,
                            detail="before timing: 1 of 1 values differ: [0] = 3735928559, want 12"))
        runs.append(report("01", n, rows, 4.0, date=f"2026-11-2{k + 1}"))
    return runs


def sweep_run(chapter_id: str, label, arguments: str, exponent: int, kernels, libraries, bytes_per_element=8.0,
              device=None) -> dict:
    """One run of a size sweep, as `tour --problems` leaves it: the chapter's command with the problem's options and
    --n 2^exponent, and (when `label` is not None) the `problem` object the tour adds. `kernels` are (number, name,
    median ms or None for a failed check), `libraries` (name, median ms or None)."""
    n = 2 ** exponent
    name = CHAPTERS[chapter_id][0]
    rows = [row("kernel", number, stage, median, bytes_per_element * n, shape_json(128, 15),
                detail="before timing: 3 of 1048576 values differ, first at [17]")
            for number, stage, median in kernels]
    rows += [row("library", 0, library, median, bytes_per_element * n, detail="the library's output differs")
             for library, median in libraries]
    rows.append(row("cpu", 0, "cpu reference", 100.0, bytes_per_element * n))
    document = report(chapter_id, n, rows, bytes_per_element, device=device)
    options = f" {arguments}" if arguments else ""
    document["command"] = (f"build/bin/chapter_{chapter_id}_{name} --reps 10{options} --n 2^{exponent} --format json "
                           f"--output runs/chapter_{chapter_id}_{name}-n2^{exponent}.json")
    if label is not None:
        document["problem"] = {"label": label, "arguments": arguments}
    return document


# Chapter 03's sweep in the tests: (label, arguments, exponent) -> kernel medians of stages 1-4 (None: FAIL) and the
# medians of cub::DeviceMerge and thrust::merge. Chosen so that every ratio is exact in two decimals.
MERGE_SWEEP = {
    ("keys int32", "--type int32", 20): ((0.80, 0.60, 0.50, 0.40), (0.50, 0.60)),        # 1.25, cub
    ("keys int32", "--type int32", 22): ((3.00, 2.00, 1.60, None), (2.40, 2.00)),        # 2.00 / 1.60 = 1.25, thrust
    ("keys int32", "--type int32", 24): ((12.0, 8.00, 6.00, 5.00), (4.00, 4.50)),        # 0.80, cub
    ("keys int64", "--type int64", 20): ((1.60, 1.20, 1.00, 0.80), (0.60, 0.70)),        # 0.75, cub
    ("keys int64", "--type int64", 24): ((None, None, None, None), (9.00, 9.50)),        # FAIL: no stage passed
}
MERGE_STAGES = ("per-element", "merge-path", "two-level", "tuned")


def merge_sweep(with_labels: bool = True) -> dict:
    """Chapter 03's synthetic sweep, file name -> report: keys int32 at 2^20, 2^22, 2^24 (stage 4 failed at 2^22),
    keys int64 at 2^20 and 2^24 (every stage failed at 2^24; 2^22 missing)."""
    runs = {}
    for (label, arguments, exponent), (kernels, libraries) in MERGE_SWEEP.items():
        stages = [(number + 1, MERGE_STAGES[number], median) for number, median in enumerate(kernels)]
        libs = list(zip(("cub::DeviceMerge", "thrust::merge"), libraries))
        slug = label.replace(" ", "-")
        runs[f"chapter_03_merge-{slug}-n2^{exponent}.json"] = sweep_run("03", label if with_labels else None,
                                                                        arguments, exponent, stages, libs)
    return runs


def join_sweep() -> dict:
    """Chapter 08's synthetic sweep: inner at 2^20 and 2^22, one library row."""
    runs = {}
    for exponent, (best, library) in ((20, (0.10, 0.30)), (22, (0.25, 0.50))):
        stages = [(1, "naive", best * 4), (2, "sorted-search", best)]
        runs[f"chapter_08_join-inner-n2^{exponent}.json"] = sweep_run(
            "08", "inner", "--join inner", exponent, stages, [("thrust bounds+scan+upper_bound", library)], 16.0)
    return runs
